import { type JobContext, NonRetryableJobError } from '../../jobs/job-definition.ts';
import { FileNotFoundError } from '../../lib/storage/index.ts';
import { aigcSectionOf } from './aigc/aigc-addon.ts';
import {
  type CheckRecord,
  findCheck,
  markDone,
  markRetrying,
  markRunning,
  setLibraryDocId,
} from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { failedFreeText } from './check-goods.service.ts';
import { deleteReport, findReport } from './check-reports.repo.ts';
import { WorkerTaskError } from './cpu-pool.ts';
import { failCheck } from './failure.service.ts';
import { buildAndStoreAigcReport, buildAndStoreReport } from './report-build.ts';
import { CheckStoppedError, type Payload, progress } from './run-context.ts';
import { extractUpload, type StoredText } from './upload.service.ts';

/**
 * The check job: parsing -> comparing -> building the report -> done. Idempotent and resumable: a
 * run after a crash or a restart starts from what is stored (the extracted text kept at upload; a
 * report already written is not made twice), and a check that is done is never run again.
 *
 * Progress (checks.progress and the job row): parsing 5, the AIGC add-on's detection 7, comparing 10–80 (the engine's own
 * progress, 10 + 70 × the share of the comparison done), reporting 85–95, done 100.
 */

function userReason(check: CheckRecord): string {
  return check.free ? failedFreeText(check.kind) : TEXTS.failedPaid;
}

/** The checked text of a check: stored at upload, or parsed again from the upload when it is gone. */
export async function loadText(rt: CheckRuntime, check: CheckRecord): Promise<StoredText> {
  if (check.textKey) {
    try {
      return JSON.parse((await rt.storage.get(check.textKey)).toString('utf8')) as StoredText;
    } catch (error) {
      if (!(error instanceof FileNotFoundError)) throw error;
    }
  }
  // The text is gone (or was never written): parse the upload again. Without the upload no retry
  // can help: the check fails at once with the reason and the way forward.
  if (!check.fileKey) throw new NonRetryableJobError('the uploaded file is gone');
  const bytes = await rt.storage.get(check.fileKey).catch((error: unknown) => {
    if (error instanceof FileNotFoundError) throw new NonRetryableJobError('the uploaded file is gone');
    throw error;
  });
  const doc = await extractUpload(rt, new Uint8Array(bytes), check.fileName);
  return { text: doc.text, headings: doc.headings, warnings: doc.warnings, format: doc.format };
}

/** The user opted in: the paper joins the comparison library (after its own check, never before). */
async function addToLibrary(rt: CheckRuntime, check: CheckRecord, stored: StoredText): Promise<void> {
  if (!check.addToLibrary || check.libraryDocId) return;
  // Not the paper of an account deleted meanwhile (if that happens during the add, the run's
  // clean-up takes it out again).
  if ((await findCheck(rt.db, check.id))?.status !== 'running') throw new CheckStoppedError();
  const id = `upload:${check.id}`;
  await rt.library.add([
    {
      id,
      text: stored.text,
      title: check.title,
      authors: [check.author],
      year: (check.finishedAt ?? rt.now()).getUTCFullYear(),
      source: '用户上传论文（已授权入库）',
      origin: 'upload',
    },
  ]);
  await setLibraryDocId(rt.db, check.id, id, rt.now());
}

/**
 * The order of a delivered check -> done (paid or processing only; idempotent). Runs after the
 * check is marked done, and again on every retry of its job and in the reconciliation
 * (check.reconcile-orders): a worker killed between the two, or an order update that failed,
 * never leaves the order 处理中. A failure throws, so the job is retried.
 */
export async function completeOrderOfCheck(
  rt: CheckRuntime,
  check: Pick<CheckRecord, 'orderId'>,
): Promise<void> {
  if (!check.orderId) return;
  const orders = rt.orders;
  const order = await orders.getOrder(check.orderId);
  if (order?.status !== 'paid' && order?.status !== 'processing') return;
  await orders.markDone(check.orderId);
}

export async function runCheck(rt: CheckRuntime, ctx: JobContext<Payload>) {
  const check = await findCheck(rt.db, ctx.payload.checkId);
  if (!check) return { skipped: 'missing' };
  if (check.status === 'done') {
    await completeOrderOfCheck(rt, check);
    return { skipped: 'done' };
  }
  if (check.status !== 'queued' && check.status !== 'running') return { skipped: check.status };
  const outcome = await runToDone(rt, ctx, check);
  if ('reportNo' in outcome) await completeOrderOfCheck(rt, check);
  return outcome;
}

async function runToDone(rt: CheckRuntime, ctx: JobContext<Payload>, check: CheckRecord) {
  try {
    if (!(await markRunning(rt.db, check.id, rt.now()))) throw new CheckStoppedError();
    if (check.orderId) {
      await rt.orders
        .markProcessing(check.orderId)
        .catch((error: unknown) => ctx.logger.warn({ err: error }, 'order could not be marked processing'));
    }
    await progress(rt, ctx, check, 'parsing', 5);
    const stored = await loadText(rt, check);
    const report =
      (await findReport(rt.db, check.id)) ??
      (check.kind === 'aigc'
        ? await buildAndStoreAigcReport(rt, ctx, check, stored)
        : // The AIGC add-on first (fast, stored at once), then the comparison; its section goes in the report.
          await buildAndStoreReport(rt, ctx, check, stored, await aigcSectionOf(rt, ctx, check, stored)));
    await addToLibrary(rt, check, stored);
    // Done under the check's row lock: an account deletion either came first (the check stopped,
    // this fails and the run is discarded) or sees a delivered check (its files purged by its job).
    if (!(await markDone(rt.db, check.id, rt.now()))) throw new CheckStoppedError();
    return { reportNo: report.reportNo, ratio: report.ratio };
  } catch (error) {
    // Stopped under the run (its account deleted): no report, nothing of the run stays.
    if (error instanceof CheckStoppedError) {
      await discardStoppedRun(rt, check);
      return { skipped: 'stopped' };
    }
    if (ctx.signal.aborted) {
      // Its job was cancelled because the check was stopped: the same. Else shutdown or a lost
      // lease: the job goes back to the queue and resumes; the check stays as is.
      const current = await findCheck(rt.db, check.id);
      if (current && current.status !== 'queued' && current.status !== 'running')
        await discardStoppedRun(rt, check);
      throw error;
    }
    const lastAttempt = error instanceof NonRetryableJobError || ctx.job.attempts >= ctx.job.maxAttempts;
    if (lastAttempt) {
      const detail = error instanceof WorkerTaskError ? error.originalName : (error as Error)?.name;
      ctx.logger.error({ err: error, detail }, 'check failed for good');
      await failCheck(rt, check, userReason(check));
    } else {
      await markRetrying(rt.db, check.id, rt.now());
    }
    throw error;
  }
}

/**
 * A run whose check was stopped under it: when the check is gone with its account (hidden, its
 * files purged by the deletion's job), what the run wrote goes too — report files, and the paper
 * if it was being added to the comparison library.
 */
async function discardStoppedRun(rt: CheckRuntime, check: CheckRecord): Promise<void> {
  const current = await findCheck(rt.db, check.id);
  if (current?.hiddenAt) {
    await purgeFiles(rt, await listReportKeys(rt, check), check.addToLibrary ? [`upload:${check.id}`] : []);
    return;
  }
  // Stopped by a full refund (checkRefundedHandler): the paper stays with its record, but no
  // report made after the refund is kept — neither its files nor its row (no 报告编号 to verify),
  // nor the paper in the comparison library.
  if (current?.status !== 'failed') return;
  const report = await findReport(rt.db, check.id);
  const reportKeys = report
    ? [report.modelKey, report.pdfKey, report.markedPdfKey, report.htmlKey, report.zipKey]
    : [];
  await purgeFiles(
    rt,
    reportKeys.filter((k): k is string => typeof k === 'string'),
    check.addToLibrary ? [`upload:${check.id}`] : [],
  );
  if (report) await deleteReport(rt.db, check.id);
}

async function listReportKeys(rt: CheckRuntime, check: CheckRecord): Promise<string[]> {
  const report = await findReport(rt.db, check.id);
  const keys = [check.fileKey, check.textKey];
  if (report) keys.push(report.modelKey, report.pdfKey, report.markedPdfKey, report.htmlKey, report.zipKey);
  // Report rows of a deleted account have no keys left; the files sit beside the upload.
  const folder = check.fileKey?.slice(0, check.fileKey.lastIndexOf('/'));
  if (folder)
    for (const name of [
      'report.json',
      'report.pdf',
      'marked.pdf',
      'report.html',
      'report.zip',
      'aigc-part.json',
    ])
      keys.push(`${folder}/${name}`);
  return keys.filter((k): k is string => typeof k === 'string');
}

/** Deletes files (and their check folders) and removes library documents. */
export async function purgeFiles(
  rt: CheckRuntime,
  keys: readonly string[],
  libraryIds: readonly string[],
): Promise<void> {
  for (const key of keys) await rt.storage.delete(key);
  for (const folder of new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/'))))) {
    if (folder.startsWith('check/')) await rt.storage.deleteFolder(folder);
  }
  for (const id of libraryIds) await rt.library.remove(id);
}
