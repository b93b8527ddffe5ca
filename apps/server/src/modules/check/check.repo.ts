import {
  type CheckFileFormat,
  type CheckKind,
  type CheckRow,
  type CheckStage,
  type CheckStatus,
  type Database,
  type ExpressionBuilder,
  type Kysely,
  sql,
} from '@kyfw/db';
import { type CheckReportRecord, toReport } from './check-reports.repo.ts';

/** Every SQL statement on `checks` (reports: check-reports.repo.ts; a whole account: account-checks.repo.ts; the library catalogue: library/library.repo.ts). */

export interface CheckRecord {
  id: string;
  checkNo: string;
  userId: string;
  orderId: string | null;
  goodsId: string;
  title: string;
  author: string;
  fileName: string;
  fileFormat: CheckFileFormat;
  fileBytes: number;
  fileSha256: string;
  /** similarity (查重) or aigc (AIGC检测), from the goods at upload. */
  kind: CheckKind;
  fileKey: string | null;
  textKey: string | null;
  chars: number;
  amountFen: number;
  free: boolean;
  addToLibrary: boolean;
  libraryDocId: string | null;
  status: CheckStatus;
  stage: CheckStage | null;
  progress: number;
  failureReason: string | null;
  jobId: string | null;
  runs: number;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  hiddenAt: Date | null;
}

export function toCheck(row: CheckRow): CheckRecord {
  return {
    id: row.id,
    checkNo: row.check_no,
    userId: row.user_id,
    orderId: row.order_id,
    goodsId: row.goods_id,
    title: row.title,
    author: row.author,
    fileName: row.file_name,
    fileFormat: row.file_format,
    fileBytes: row.file_bytes,
    fileSha256: row.file_sha256,
    kind: row.kind,
    fileKey: row.file_key,
    textKey: row.text_key,
    chars: row.chars,
    amountFen: row.amount_fen,
    free: row.free,
    addToLibrary: row.add_to_library,
    libraryDocId: row.library_doc_id,
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    failureReason: row.failure_reason,
    jobId: row.job_id,
    runs: row.runs,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    hiddenAt: row.hidden_at,
  };
}

export interface NewCheck {
  id?: string;
  checkNo: string;
  userId: string;
  orderId: string | null;
  goodsId: string;
  title: string;
  author: string;
  fileName: string;
  fileFormat: CheckFileFormat;
  fileBytes: number;
  fileSha256: string;
  kind: CheckKind;
  chars: number;
  amountFen: number;
  free: boolean;
  addToLibrary: boolean;
  now: Date;
}

/** Inserts a check; undefined when the check number was taken (the caller draws another). */
export async function insertCheck(db: Kysely<Database>, c: NewCheck): Promise<CheckRecord | undefined> {
  const row = await db
    .insertInto('checks')
    .values({
      ...(c.id ? { id: c.id } : {}),
      check_no: c.checkNo,
      user_id: c.userId,
      order_id: c.orderId,
      goods_id: c.goodsId,
      title: c.title,
      author: c.author,
      file_name: c.fileName,
      file_format: c.fileFormat,
      file_bytes: c.fileBytes,
      file_sha256: c.fileSha256,
      kind: c.kind,
      chars: c.chars,
      amount_fen: c.amountFen,
      free: c.free,
      add_to_library: c.addToLibrary,
      created_at: c.now,
      updated_at: c.now,
    })
    .onConflict((oc) => oc.column('check_no').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toCheck(row) : undefined;
}

export async function setCheckFiles(
  db: Kysely<Database>,
  id: string,
  files: { fileKey: string; textKey: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('checks')
    .set({ file_key: files.fileKey, text_key: files.textKey, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function findCheck(db: Kysely<Database>, id: string): Promise<CheckRecord | undefined> {
  const row = await db.selectFrom('checks').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toCheck(row) : undefined;
}

/** Locks the row for the rest of the transaction. */
export async function lockCheck(tx: Kysely<Database>, id: string): Promise<CheckRecord | undefined> {
  const row = await tx.selectFrom('checks').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toCheck(row) : undefined;
}

/** The user's own, not deleted check. */
export async function findUserCheck(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<CheckRecord | undefined> {
  const row = await db
    .selectFrom('checks')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null)
    .where(orderNotDeleted)
    .executeTakeFirst();
  return row ? toCheck(row) : undefined;
}

/** Delivered checks whose order is still paid or processing (at most `limit`). */
export async function listDoneChecksWithOpenOrders(
  db: Kysely<Database>,
  limit: number,
): Promise<{ id: string; orderId: string }[]> {
  const rows = await db
    .selectFrom('checks')
    .innerJoin('orders', 'orders.id', 'checks.order_id')
    .select(['checks.id', 'checks.order_id'])
    .where('checks.status', '=', 'done')
    .where('orders.status', 'in', ['paid', 'processing'])
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, orderId: r.order_id! }));
}

/** A check whose order the user deleted (/order/delete) is deleted for them too. */
function orderNotDeleted(eb: ExpressionBuilder<Database, 'checks'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('orders')
        .select('orders.id')
        .whereRef('orders.id', '=', 'checks.order_id')
        .where('orders.deleted_by_user', '=', true),
    ),
  );
}

export async function listUserChecks(
  db: Kysely<Database>,
  userId: string,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: { check: CheckRecord; report: CheckReportRecord | undefined }[] }> {
  const base = db
    .selectFrom('checks')
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null)
    .where(orderNotDeleted);
  const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const reports =
    rows.length === 0
      ? []
      : await db
          .selectFrom('check_reports')
          .selectAll()
          .where(
            'check_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
  const byId = new Map(reports.map((r) => [r.check_id, toReport(r)]));
  return { total: Number(count.n), rows: rows.map((r) => ({ check: toCheck(r), report: byId.get(r.id) })) };
}

/** pending -> queued with its job; false when the check was not pending. */
export async function markQueued(
  tx: Kysely<Database>,
  id: string,
  jobId: string,
  now: Date,
): Promise<boolean> {
  const r = await tx
    .updateTable('checks')
    .set({ status: 'queued', job_id: jobId, progress: 0, stage: null, failure_reason: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** queued|running -> running (a run starts or resumes); false when the check is no longer to run. */
export async function markRunning(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('checks')
    .set({
      status: 'running',
      stage: 'parsing',
      failure_reason: null,
      runs: sql`runs + 1`,
      started_at: sql`coalesce(started_at, ${now})`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The running check's stage and progress; false when the check is not running (any more). */
export async function setStage(
  db: Kysely<Database>,
  id: string,
  stage: CheckStage,
  progress: number,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('checks')
    // Never backwards: a run after a failed attempt holds the bar until it passes the old value.
    .set({ stage, progress: sql`greatest(progress, ${progress})`, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** A run failed and the job will try again: back to queued, the progress kept. */
export async function markRetrying(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db
    .updateTable('checks')
    .set({ status: 'queued', stage: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The check, if in one of `from`, becomes failed with `reason`; false when it was not. */
async function markFailedFrom(
  db: Kysely<Database>,
  id: string,
  reason: string,
  now: Date,
  from: readonly CheckRecord['status'][],
): Promise<boolean> {
  const r = await db
    .updateTable('checks')
    .set({
      status: 'failed',
      stage: null,
      failure_reason: reason.slice(0, 500),
      finished_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** queued|running -> failed with `reason` (the run failed). */
export function markFailed(db: Kysely<Database>, id: string, reason: string, now: Date): Promise<boolean> {
  return markFailedFrom(db, id, reason, now, ['queued', 'running']);
}

/** running -> done; false when the check was stopped meanwhile (its account deleted). */
export async function markDone(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('checks')
    .set({
      status: 'done',
      stage: null,
      progress: 100,
      failure_reason: null,
      finished_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/**
 * pending|queued|running -> failed with `reason`: the check will not run (its account is being
 * deleted). False when it was done or failed already.
 */
export function markStopped(db: Kysely<Database>, id: string, reason: string, now: Date): Promise<boolean> {
  return markFailedFrom(db, id, reason, now, ['pending', 'queued', 'running']);
}

/**
 * Locks (ascending id) and returns the account's checks that have not delivered a report (any
 * status but done): account deletion. A transaction starting or retrying one of them meanwhile is
 * waited for and its outcome seen.
 */
export async function lockUndeliveredChecksOf(tx: Kysely<Database>, userId: string): Promise<CheckRecord[]> {
  const rows = await tx
    .selectFrom('checks')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '<>', 'done')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toCheck);
}

export async function setLibraryDocId(
  db: Kysely<Database>,
  id: string,
  docId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('checks')
    .set({ library_doc_id: docId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Hides the check and forgets its file keys (the files are deleted by the caller). */
export async function hideCheck(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db
    .updateTable('checks')
    .set({ hidden_at: now, file_key: null, text_key: null, updated_at: now })
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('check_reports')
    .set({ model_key: null, pdf_key: null, marked_pdf_key: null, html_key: null, zip_key: null })
    .where('check_id', '=', id)
    .execute();
}
