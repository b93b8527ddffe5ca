import type { Database, Kysely, ReductionKind, ReductionSource, ReductionStatus } from '@kyfw/db';
import { updateColumns } from '../../lib/update-columns.ts';

export interface ReductionParagraph {
  index: number;
  text: string;
  /** Chosen to be rewritten (flagged by the engine or the detector, or every prose paragraph). */
  target: boolean;
}

export interface RewriteResult {
  index: number;
  after: string;
  /** rewritten: passed the fact check; kept: every attempt lost a fact, the original stays. */
  outcome: 'rewritten' | 'kept';
  attempts: number;
  /** For kept (rows before decision 0027): the facts the last attempt lost. */
  lost: string[];
  /**
   * For kept: every rule the last attempt broke — a fact rule of reduction.facts.ts or an output
   * rule of the LLM provider's checker — with its Chinese message, e.g.
   * {rule: 'number', message: '数字被改动（8所 → 18所）'}.
   */
  problems?: { rule: string; message: string }[];
}

export interface Reduction {
  id: string;
  userId: string;
  kind: ReductionKind;
  source: ReductionSource;
  title: string;
  checkId: string | null;
  fileName: string | null;
  fileKey: string | null;
  originalText: string;
  chars: number;
  paragraphs: ReductionParagraph[];
  results: RewriteResult[];
  rateBefore: number | null;
  rateAfter: number | null;
  aigcBefore: number | null;
  aigcAfter: number | null;
  sandbox: boolean;
  orderId: string | null;
  status: ReductionStatus;
  progress: number;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  hiddenAt: Date | null;
  /** Given back for target paragraphs not rewritten (decision 0027); null until the job decided. */
  refundFen: number | null;
}

type Row = Awaited<ReturnType<typeof selectRow>>;
function selectRow(db: Kysely<Database>) {
  return db.selectFrom('reductions').selectAll().executeTakeFirstOrThrow();
}

function json<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function toReduction(row: Row): Reduction {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    source: row.source,
    title: row.title,
    checkId: row.check_id,
    fileName: row.file_name,
    fileKey: row.file_key,
    originalText: row.original_text,
    chars: row.chars,
    paragraphs: json<ReductionParagraph[]>(row.paragraphs, []),
    results: json<RewriteResult[]>(row.results, []),
    rateBefore: row.rate_before,
    rateAfter: row.rate_after,
    aigcBefore: row.aigc_before,
    aigcAfter: row.aigc_after,
    sandbox: row.sandbox,
    orderId: row.order_id,
    status: row.status,
    progress: row.progress,
    failureReason: row.failure_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    hiddenAt: row.hidden_at,
    refundFen: row.refund_fen,
  };
}

export async function insertReduction(
  db: Kysely<Database>,
  v: {
    id: string;
    userId: string;
    kind: ReductionKind;
    source: ReductionSource;
    title: string;
    checkId?: string | null;
    fileName?: string | null;
    fileKey?: string | null;
    fileBytes?: number;
    originalText: string;
    chars: number;
    paragraphs: ReductionParagraph[];
    orderId: string;
    now: Date;
  },
): Promise<Reduction> {
  const row = await db
    .insertInto('reductions')
    .values({
      id: v.id,
      user_id: v.userId,
      kind: v.kind,
      source: v.source,
      title: v.title,
      check_id: v.checkId ?? null,
      file_name: v.fileName ?? null,
      file_key: v.fileKey ?? null,
      file_bytes: v.fileBytes ?? 0,
      original_text: v.originalText,
      chars: v.chars,
      paragraphs: JSON.stringify(v.paragraphs),
      order_id: v.orderId,
      created_at: v.now,
      updated_at: v.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toReduction(row);
}

export async function findReduction(
  db: Kysely<Database>,
  where: { id?: string; orderId?: string; userId?: string },
  options: { forUpdate?: boolean } = {},
): Promise<Reduction | undefined> {
  let q = db.selectFrom('reductions').selectAll();
  if (where.id) q = q.where('id', '=', where.id);
  if (where.orderId) q = q.where('order_id', '=', where.orderId);
  if (where.userId) q = q.where('user_id', '=', where.userId).where('hidden_at', 'is', null);
  if (options.forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toReduction(row) : undefined;
}

export async function listReductionsOfUser(db: Kysely<Database>, userId: string, limit = 50) {
  const rows = await db
    .selectFrom('reductions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('hidden_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toReduction);
}

export interface ReductionUpdate {
  paragraphs?: ReductionParagraph[];
  results?: RewriteResult[];
  rateBefore?: number | null;
  rateAfter?: number | null;
  aigcBefore?: number | null;
  aigcAfter?: number | null;
  sandbox?: boolean;
  status?: ReductionStatus;
  progress?: number;
  failureReason?: string | null;
  finishedAt?: Date | null;
  hiddenAt?: Date | null;
  refundFen?: number | null;
}

/** What updateReduction may change (ReductionUpdate's fields). */
const REDUCTION_UPDATE_FIELDS = [
  'paragraphs',
  'results',
  'rateBefore',
  'rateAfter',
  'aigcBefore',
  'aigcAfter',
  'sandbox',
  'status',
  'progress',
  'failureReason',
  'finishedAt',
  'hiddenAt',
  'refundFen',
] as const satisfies readonly (keyof ReductionUpdate)[];

export async function updateReduction(db: Kysely<Database>, id: string, u: ReductionUpdate, now: Date) {
  await db
    .updateTable('reductions')
    .set({
      ...updateColumns('reductions', u, REDUCTION_UPDATE_FIELDS, ['paragraphs', 'results']),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Account deletion and export (reduction.account-data.ts)

/** The account's reductions not yet delivered (ordered or rewriting), locked, in id order. */
export async function lockUndeliveredReductionsOf(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('reductions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['ordered', 'rewriting'])
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toReduction);
}

/** The rewrite job of an order (queued with dedupe key `reduction:<orderId>`), if any. */
export async function findRewriteJobId(db: Kysely<Database>, orderId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('dedupe_key', '=', `reduction:${orderId}`)
    .executeTakeFirst();
  return row?.id;
}

/** Bytes of the account's uploads kept in storage (the upload quota; hidden reductions no longer count). */
export async function sumAccountReductionFileBytes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('reductions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('file_bytes'), eb.lit(0)).as('bytes'))
    .where('user_id', '=', userId)
    .where('file_key', 'is not', null)
    .where('hidden_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Deletes every reduction of the account (texts and results); returns the stored files' keys. */
export async function deleteAccountReductions(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('reductions')
    .where('user_id', '=', userId)
    .returning('file_key')
    .execute();
  return rows.map((r) => r.file_key).filter((k): k is string => typeof k === 'string');
}

/** The account's reductions for "export my data", hidden ones included: the texts and their rewrites. */
export async function listReductionsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('reductions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toReduction);
}
