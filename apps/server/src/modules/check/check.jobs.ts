import { z } from 'zod';
import {
  defineJob,
  type JobContext,
  type JobDefinition,
  NonRetryableJobError,
} from '../../jobs/job-definition.ts';
import type { Schedule } from '../../jobs/scheduler.ts';
import { FileNotFoundError } from '../../lib/storage/index.ts';
import { type PaidHandler, serviceUndeliverable } from '../orders/orders.api.ts';
import {
  type CheckRecord,
  type CheckReportRecord,
  findCheck,
  findReport,
  insertReport,
  listDoneChecksWithOpenOrders,
  lockCheck,
  markDone,
  markRetrying,
  markRunning,
  type NewReport,
  setLibraryDocId,
  setStage,
} from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import {
  CHECK_JOB,
  CHECK_PURGE_JOB,
  extractUpload,
  failCheck,
  failedFreeText,
  queuePaidCheck,
  type StoredText,
} from './check.service.ts';
import { CHECK_STAGE_TEXTS, TEXTS } from './check.texts.ts';
import { WorkerTaskError } from './cpu-pool.ts';
import { collectionsOf } from './library/collections.ts';
import { createProgressWriter } from './progress-writer.ts';
import { buildReportModel } from './report/report-model.ts';
import { maskAuthor, newReportNo, type ReportSummary, signSummary, verificationCodeOf } from './signing.ts';

/**
 * The check job: parsing -> comparing -> building the report -> done. Idempotent and resumable: a
 * run after a crash or a restart starts from what is stored (the extracted text kept at upload; a
 * report already written is not made twice), and a check that is done is never run again.
 *
 * Progress (checks.progress and the job row): parsing 5, comparing 10–80 (the engine's own
 * progress, 10 + 70 × the share of the comparison done), reporting 85–95, done 100.
 */

const payloadSchema = z.object({ checkId: z.uuid() });
type Payload = z.infer<typeof payloadSchema>;

/** The comparing stage's progress is stored at most this often (ms): a few writes a second. */
const COMPARE_PROGRESS_WRITE_MS = 250;

/** The stored percentage for the engine's share of the comparison done (0..1): 10–80. */
function comparingPercent(fraction: number): number {
  return Math.round(10 + 70 * Math.min(1, Math.max(0, fraction)));
}

function userReason(check: CheckRecord): string {
  return check.free ? failedFreeText(check.kind) : TEXTS.failedPaid;
}

async function loadText(rt: CheckRuntime, check: CheckRecord): Promise<StoredText> {
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

/**
 * The check is no longer this run's: it was stopped while the run was under way (its account was
 * deleted, check.service stopChecksOfErasedAccount). The run ends without a report.
 */
class CheckStoppedError extends Error {
  override readonly name = 'CheckStoppedError';
}

async function progress(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stage: 'parsing' | 'comparing' | 'detecting' | 'reporting',
  percent: number,
) {
  if (!(await setStage(rt.db, check.id, stage, percent, rt.now()))) throw new CheckStoppedError();
  await ctx.reportProgress(percent, CHECK_STAGE_TEXTS[stage]);
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
}

/** What every report's header needs: the order (paid checks), the goods' name, time, storage folder. */
async function reportContext(rt: CheckRuntime, check: CheckRecord, defaultGoodsName: string) {
  const order = check.orderId ? await rt.orders.getOrder(check.orderId) : undefined;
  const goods = await rt.orders.getGoods(check.goodsId);
  return {
    order,
    goodsName: order?.goodsName ?? goods?.name ?? defaultGoodsName,
    checkedAt: rt.now(),
    folder: check.fileKey ? check.fileKey.slice(0, check.fileKey.lastIndexOf('/')) : `check/${check.id}`,
  };
}

/**
 * Writes the report row, only while the check is still this run's (under its lock: a deletion
 * stopping it waits, or is seen). Undefined when the report number was taken (draw another).
 */
async function storeReportRow(
  rt: CheckRuntime,
  check: CheckRecord,
  row: NewReport,
): Promise<CheckReportRecord | undefined> {
  const inserted = await rt.db.transaction().execute(async (tx) => {
    if ((await lockCheck(tx, check.id))?.status !== 'running') throw new CheckStoppedError();
    return insertReport(tx, row);
  });
  return inserted ?? (await findReport(rt.db, check.id));
}

async function buildAndStoreReport(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stored: StoredText,
): Promise<CheckReportRecord> {
  await progress(rt, ctx, check, 'comparing', 10);
  const started = Date.now();
  // The engine reports its progress from the worker thread; stored throttled, never backwards.
  const comparing = createProgressWriter({
    start: 10,
    intervalMs: COMPARE_PROGRESS_WRITE_MS,
    async write(percent) {
      await setStage(rt.db, check.id, 'comparing', percent, rt.now());
      await ctx.reportProgress(percent, CHECK_STAGE_TEXTS.comparing);
    },
    onError: (error) => ctx.logger.warn({ err: error }, 'comparing progress not stored'),
  });
  const goods = await rt.orders.getGoods(check.goodsId);
  const collections = collectionsOf(goods);
  let compared: Awaited<ReturnType<CheckRuntime['pool']['compare']>>;
  try {
    // Only the collections the goods names (硕博 with the thesis collection, …): a candidate from
    // another collection is left out and the comparison runs again without it, until none is left.
    const excluded: number[] = [];
    for (;;) {
      compared = await rt.pool.compare(rt.indexLocation, stored.text, stored.headings, {
        onProgress: (p) => comparing.update(comparingPercent(p.fraction)),
        excludeDocNos: excluded,
      });
      if (!collections) break;
      const outside = await rt.library.outsideCollections(
        compared.candidates.map((c) => c.id),
        collections,
      );
      if (outside.size === 0) break;
      for (const c of compared.candidates) if (outside.has(c.id)) excluded.push(c.docNo);
      ctx.logger.info({ excluded: outside.size }, 'candidates outside the goods collections left out');
    }
    // The engine's last report (the whole comparison, 80) is stored before the next stage.
    await comparing.flush();
  } finally {
    await comparing.close();
  }
  ctx.logger.info({ ms: Date.now() - started, chars: stored.text.length }, 'check compared');
  await progress(rt, ctx, check, 'reporting', 85);

  const { report } = compared;
  const sources = new Map(compared.sources.map((d) => [d.id, d]));
  const catalog = await rt.library.describeSources(report.sources.map((s) => s.sourceId));
  const { order, goodsName, checkedAt, folder } = await reportContext(rt, check, '论文查重');

  for (let attempt = 0; attempt < 3; attempt++) {
    const reportNo = newReportNo(checkedAt);
    const summary: ReportSummary = {
      reportNo,
      title: check.title,
      author: maskAuthor(check.author),
      goodsName,
      totalChars: report.chars,
      copiedChars: report.copiedChars,
      ratio: report.ratio,
      ratioExcludingQuotes: report.ratioExcludingQuotes,
      maxSingleSourceRatio: report.maxSingleSourceRatio,
      checkedAt: checkedAt.toISOString(),
    };
    const signature = signSummary(rt.signingSecret, summary);
    const verificationCode = verificationCodeOf(rt.signingSecret, signature);
    const verifyUrl = `${rt.publicBaseUrl}/check/verify?reportNo=${reportNo}&code=${verificationCode}`;
    const model = buildReportModel({
      orderId: check.id,
      orderNo: order?.orderNo ?? check.checkNo,
      reportNo,
      verificationCode,
      verifyUrl,
      title: check.title,
      author: check.author,
      goodsName,
      fileName: check.fileName,
      checkedAt,
      text: stored.text,
      report,
      sources,
      catalog,
      warnings: stored.warnings,
    });
    const files = await rt.pool.render(model);
    await progress(rt, ctx, check, 'reporting', 95);
    const keys = {
      model: `${folder}/report.json`,
      pdf: `${folder}/report.pdf`,
      markedPdf: `${folder}/marked.pdf`,
      html: `${folder}/report.html`,
      zip: `${folder}/report.zip`,
    };
    await rt.storage.put(keys.model, JSON.stringify(model));
    await rt.storage.put(keys.pdf, files.pdf);
    await rt.storage.put(keys.markedPdf, files.markedPdf);
    await rt.storage.put(keys.html, files.html);
    await rt.storage.put(keys.zip, files.zip);
    const storedRow = await storeReportRow(rt, check, {
      checkId: check.id,
      reportNo,
      verificationCode,
      summary,
      signature,
      ratio: report.ratio,
      totalChars: report.chars,
      copiedChars: report.copiedChars,
      keys,
      checkedAt,
    });
    if (storedRow) return storedRow;
  }
  throw new Error('could not draw a free report number');
}

/**
 * An AIGC check's report: the detector and the PDF run in the worker thread (packages/aigc through
 * check/aigc); the row in check_reports keeps the index / 100 as `ratio` and the flagged
 * paragraphs' characters as `copied_chars`; the signed summary says it is an AIGC report.
 */
async function buildAndStoreAigcReport(
  rt: CheckRuntime,
  ctx: JobContext<Payload>,
  check: CheckRecord,
  stored: StoredText,
): Promise<CheckReportRecord> {
  await progress(rt, ctx, check, 'detecting', 20);
  const { order, goodsName, checkedAt, folder } = await reportContext(rt, check, 'AIGC检测');
  for (let attempt = 0; attempt < 3; attempt++) {
    const reportNo = newReportNo(checkedAt);
    // The figures are known only after detection, and the signature covers them: detect, sign,
    // then render with the verification code in the header.
    const detected = await rt.pool.detectAigc({
      header: {
        orderId: check.id,
        orderNo: order?.orderNo ?? check.checkNo,
        reportNo,
        verificationCode: '',
        verifyUrl: '',
        title: check.title,
        author: check.author,
        goodsName,
        fileName: check.fileName,
        checkedAt: checkedAt.toISOString(),
      },
      text: stored.text,
      totalChars: check.chars,
      warnings: stored.warnings,
    });
    const f = detected.figures;
    const summary: ReportSummary = {
      reportNo,
      title: check.title,
      author: maskAuthor(check.author),
      goodsName,
      totalChars: check.chars,
      copiedChars: f.flaggedChars,
      ratio: f.score / 100,
      ratioExcludingQuotes: f.score / 100,
      maxSingleSourceRatio: 0,
      checkedAt: checkedAt.toISOString(),
      kind: 'aigc',
      aigcScore: f.score,
      aigcReliable: f.reliable,
    };
    const signature = signSummary(rt.signingSecret, summary);
    const verificationCode = verificationCodeOf(rt.signingSecret, signature);
    const model = {
      ...detected,
      verificationCode,
      verifyUrl: `${rt.publicBaseUrl}/check/verify?reportNo=${reportNo}&code=${verificationCode}`,
    };
    await progress(rt, ctx, check, 'reporting', 80);
    const pdf = await rt.pool.renderAigc(model);
    await progress(rt, ctx, check, 'reporting', 90);
    const keys = { model: `${folder}/aigc-report.json`, pdf: `${folder}/aigc-report.pdf` };
    await rt.storage.put(keys.model, JSON.stringify(model));
    await rt.storage.put(keys.pdf, pdf);
    const storedRow = await storeReportRow(rt, check, {
      checkId: check.id,
      reportNo,
      verificationCode,
      summary,
      signature,
      ratio: f.score / 100,
      totalChars: check.chars,
      copiedChars: f.flaggedChars,
      keys: { model: keys.model, pdf: keys.pdf, markedPdf: null, html: null, zip: null },
      checkedAt,
    });
    if (storedRow) return storedRow;
  }
  throw new Error('could not draw a free report number');
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
        : await buildAndStoreReport(rt, ctx, check, stored));
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
  if (!current?.hiddenAt) return;
  await purgeFiles(rt, await listReportKeys(rt, check), check.addToLibrary ? [`upload:${check.id}`] : []);
}

async function listReportKeys(rt: CheckRuntime, check: CheckRecord): Promise<string[]> {
  const report = await findReport(rt.db, check.id);
  const keys = [check.fileKey, check.textKey];
  if (report) keys.push(report.modelKey, report.pdfKey, report.markedPdfKey, report.htmlKey, report.zipKey);
  // Report rows of a deleted account have no keys left; the files sit beside the upload.
  const folder = check.fileKey?.slice(0, check.fileKey.lastIndexOf('/'));
  if (folder)
    for (const name of ['report.json', 'report.pdf', 'marked.pdf', 'report.html', 'report.zip'])
      keys.push(`${folder}/${name}`);
  return keys.filter((k): k is string => typeof k === 'string');
}

/** Deletes files (and their check folders) and removes library documents. */
async function purgeFiles(
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

const purgeSchema = z.object({
  keys: z.array(z.string().max(300)).max(100_000),
  libraryIds: z.array(z.string().max(300)).max(100_000),
});

/** Removes the files and library documents of a deleted account (queued by its deletion). */
export const checkPurgeFilesJob = defineJob({
  name: CHECK_PURGE_JOB,
  maxAttempts: 5,
  payloadSchema: purgeSchema,
  async handler(ctx) {
    const rt = ctx.services.check;
    await purgeFiles(rt, ctx.payload.keys, ctx.payload.libraryIds);
    return { files: ctx.payload.keys.length, libraryDocuments: ctx.payload.libraryIds.length };
  },
});

export const checkRunJob = defineJob({
  name: CHECK_JOB,
  maxAttempts: 3,
  payloadSchema: payloadSchema,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 60_000),
  async handler(ctx) {
    const rt = ctx.services.check;
    return runCheck(rt, ctx);
  },
});

/**
 * Every few minutes: orders of delivered checks still paid or processing (their check job's last
 * attempt could not finish the order) are marked done.
 */
export const checkReconcileOrdersJob = defineJob({
  name: 'check.reconcile-orders',
  maxAttempts: 1,
  async handler(ctx) {
    const rt = ctx.services.check;
    const stuck = await listDoneChecksWithOpenOrders(rt.db, 200);
    for (const check of stuck) await completeOrderOfCheck(rt, check);
    if (stuck.length > 0) ctx.logger.warn({ orders: stuck.length }, 'orders of delivered checks completed');
    return { completed: stuck.length };
  },
});

export const checkSchedules: Schedule[] = [
  {
    name: 'check-reconcile-orders',
    jobName: checkReconcileOrdersJob.name,
    everyMs: 5 * 60_000,
    offsetMs: 45_000,
  },
];

// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const checkJobDefinitions: readonly JobDefinition<any, any>[] = [
  checkRunJob,
  checkPurgeFilesJob,
  checkReconcileOrdersJob,
];

/**
 * The onPaid('check') handler (check.module.ts hooks): a paid check order queues its check in the
 * payment's transaction (dedupe key: one job per check). A check deleted before the payment was
 * accepted is not run: the orders module refunds the payment.
 */
export const checkPaidHandler: PaidHandler = async ({ tx, order }) => {
  const queued = await queuePaidCheck(tx, order.orderId, order.serviceRef, new Date());
  if (queued === 'deleted') return serviceUndeliverable(TEXTS.refundDeletedCheck, TEXTS.deletedCheckStatus);
};
