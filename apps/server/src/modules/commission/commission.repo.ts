import type {
  CommissionServiceType,
  CommissionStatus,
  CommissionsTable,
  Database,
  Kysely,
  Selectable,
} from '@kyfw/db';
import { sql } from 'kysely';

export type CommissionRow = Selectable<CommissionsTable>;
export type CommissionFileRow = Selectable<Database['commission_files']>;

export async function insertCommission(
  db: Kysely<Database>,
  row: {
    id: string;
    commissionNo: string;
    userId: string;
    service: CommissionServiceType;
    title: string;
    form: Record<string, unknown>;
    goodsId: string;
    quantity: number | null;
    status: CommissionStatus;
    orderId: string | null;
    deadline: string | null;
    now: Date;
  },
): Promise<CommissionRow | undefined> {
  return db
    .insertInto('commissions')
    .values({
      id: row.id,
      commission_no: row.commissionNo,
      user_id: row.userId,
      service: row.service,
      title: row.title,
      form: JSON.stringify(row.form),
      goods_id: row.goodsId,
      quantity: row.quantity,
      status: row.status,
      order_id: row.orderId,
      deadline: row.deadline,
      submitted_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) => oc.column('commission_no').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findCommission(
  db: Kysely<Database>,
  where: { id?: string; orderId?: string; userId?: string },
  options: { forUpdate?: boolean } = {},
): Promise<CommissionRow | undefined> {
  let q = db.selectFrom('commissions').selectAll();
  if (where.id !== undefined) q = q.where('id', '=', where.id);
  if (where.orderId !== undefined) q = q.where('order_id', '=', where.orderId);
  if (where.userId !== undefined) q = q.where('user_id', '=', where.userId);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export interface CommissionFilter {
  userId?: string;
  service?: CommissionServiceType;
  status?: CommissionStatus;
  /** Part of the 委托编号, of the contact's phone or name, or the start of the account's phone. */
  search?: string;
  /** Submission days (China time, YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
}

const likeOf = (text: string) => text.replace(/[%_\\]/g, '\\$&');

function filtered(db: Kysely<Database>, filter: CommissionFilter) {
  let q = db.selectFrom('commissions');
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.service !== undefined) q = q.where('service', '=', filter.service);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  const submittedDay = sql<string>`to_char(submitted_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  if (filter.from !== undefined) q = q.where(submittedDay, '>=', filter.from);
  if (filter.to !== undefined) q = q.where(submittedDay, '<=', filter.to);
  if (filter.search !== undefined) {
    const part = `%${likeOf(filter.search)}%`;
    const start = `${likeOf(filter.search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('commission_no', 'ilike', part),
        eb(sql<string>`form->>'contactPhone'`, 'like', part),
        eb(sql<string>`form->>'contactName'`, 'ilike', part),
        eb('user_id', 'in', eb.selectFrom('users').select('id').where('phone_number', 'like', start)),
      ]),
    );
  }
  return q;
}

export async function listCommissions(
  db: Kysely<Database>,
  filter: CommissionFilter,
  page: { offset: number; limit: number },
  order: 'newest' | 'oldest' | 'due' = 'newest',
): Promise<{ rows: CommissionRow[]; total: number }> {
  const q = filtered(db, filter);
  let listed = q.selectAll();
  // The operators' queue: the earliest due date first, those without one (not paid yet) after.
  if (order === 'due') listed = listed.orderBy(sql`due_date is null`).orderBy('due_date');
  listed = listed.orderBy('submitted_at', order === 'oldest' ? 'asc' : 'desc');
  const [rows, count] = await Promise.all([
    listed.orderBy('id').offset(page.offset).limit(page.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** How many commissions each status has under `filter` (its own status ignored): the tabs' counts. */
export async function countCommissionsByStatus(
  db: Kysely<Database>,
  filter: CommissionFilter,
): Promise<Record<CommissionStatus, number>> {
  const rows = await filtered(db, { ...filter, status: undefined })
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  const counts: Record<CommissionStatus, number> = {
    quoting: 0,
    pending_payment: 0,
    processing: 0,
    done: 0,
    cancelled: 0,
    refunded: 0,
  };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

export async function updateCommission(
  db: Kysely<Database>,
  id: string,
  patch: Partial<
    Pick<
      CommissionRow,
      | 'status'
      | 'order_id'
      | 'quantity'
      | 'quote_note'
      | 'quoted_at'
      | 'paid_at'
      | 'done_at'
      | 'cancelled_at'
      | 'refunded_at'
      | 'notified_at'
      | 'due_date'
    >
  >,
  now: Date,
): Promise<CommissionRow> {
  return db
    .updateTable('commissions')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertFile(
  db: Kysely<Database>,
  row: {
    id: string;
    userId: string;
    commissionId: string | null;
    kind: 'attachment' | 'report';
    fileName: string;
    storageKey: string;
    bytes: number;
    staffId: string | null;
    now: Date;
  },
): Promise<CommissionFileRow> {
  return db
    .insertInto('commission_files')
    .values({
      id: row.id,
      user_id: row.userId,
      commission_id: row.commissionId,
      kind: row.kind,
      file_name: row.fileName,
      storage_key: row.storageKey,
      bytes: row.bytes,
      staff_id: row.staffId,
      created_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's own attachments not yet attached to a commission, of those ids. */
export function findLooseAttachments(db: Kysely<Database>, userId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as CommissionFileRow[]);
  return db
    .selectFrom('commission_files')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'attachment')
    .where('commission_id', 'is', null)
    .where('id', 'in', ids)
    .forUpdate()
    .execute();
}

export async function attachFiles(db: Kysely<Database>, commissionId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .updateTable('commission_files')
    .set({ commission_id: commissionId })
    .where('id', 'in', ids)
    .execute();
}

export function filesOf(db: Kysely<Database>, commissionIds: string[]): Promise<CommissionFileRow[]> {
  if (commissionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('commission_files')
    .selectAll()
    .where('commission_id', 'in', commissionIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The accounts' phones (the done notice, the operators' list); read only, as the console does. */
export async function phonesOf(db: Kysely<Database>, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'phone_number'])
    .where('id', 'in', userIds)
    .execute();
  return new Map(rows.map((r) => [r.id, r.phone_number]));
}

/** The goods' promised days from payment to delivery (migration 0047); null: none. */
export async function turnaroundDaysOf(db: Kysely<Database>, goodsId: string): Promise<number | null> {
  const row = await db
    .selectFrom('goods')
    .select('turnaround_days')
    .where('id', '=', goodsId)
    .executeTakeFirst();
  return row?.turnaround_days ?? null;
}

/** The account's commissions, locked (a deletion: after the orders, as the lock order says). */
export function lockAccountCommissions(db: Kysely<Database>, userId: string): Promise<CommissionRow[]> {
  return db.selectFrom('commissions').selectAll().where('user_id', '=', userId).forUpdate().execute();
}

/** Forgets an erased account's commissions: the form emptied, the title cleared, files' rows gone. */
export async function deidentifyAccountCommissions(db: Kysely<Database>, userId: string, now: Date) {
  const files = await db
    .deleteFrom('commission_files')
    .where('user_id', '=', userId)
    .returning('storage_key')
    .execute();
  // The e-mail notices hold the address: gone (a queued job then finds nothing to send).
  await db
    .deleteFrom('commission_notices')
    .where('commission_id', 'in', db.selectFrom('commissions').select('id').where('user_id', '=', userId))
    .execute();
  await db
    .updateTable('commissions')
    .set({ form: '{}', title: '（账号已注销）', quote_note: null, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
  return files.map((f) => f.storage_key);
}

/** The account's commissions for "export my data" (the form as submitted, files by name). */
export async function listCommissionsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('commissions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('submitted_at')
    .execute();
  const files = await filesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    commissionNo: r.commission_no,
    service: r.service,
    title: r.title,
    status: r.status,
    form: r.form,
    submittedAt: r.submitted_at.toISOString(),
    doneAt: r.done_at?.toISOString() ?? null,
    files: files
      .filter((f) => f.commission_id === r.id)
      .map((f) => ({ kind: f.kind, fileName: f.file_name })),
  }));
}

/** Bytes of the attachments the account uploaded and keeps (the upload quota; reports are ours, not counted). */
export async function sumAccountAttachmentBytes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('commission_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('bytes'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'attachment')
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** The account's attachments not (yet) sent with a form, for "export my data". */
export async function listLooseAttachmentsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('commission_files')
    .select(['file_name', 'bytes', 'created_at'])
    .where('user_id', '=', userId)
    .where('commission_id', 'is', null)
    .where('kind', '=', 'attachment')
    .orderBy('created_at')
    .execute();
  return rows.map((f) => ({ fileName: f.file_name, bytes: f.bytes, uploadedAt: f.created_at.toISOString() }));
}

/** Attachments uploaded before `before` and never attached to a commission: their rows go, keys returned. */
export async function deleteLooseAttachments(db: Kysely<Database>, before: Date): Promise<string[]> {
  const rows = await db
    .deleteFrom('commission_files')
    .where('commission_id', 'is', null)
    .where('kind', '=', 'attachment')
    .where('created_at', '<', before)
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}
