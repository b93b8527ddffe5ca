import { type Database, type Kysely, type RefundRow, type RefundStatus, sql } from '@kyfw/db';

// --- refunds ------------------------------------------------------------------------------------

export interface RefundRecord {
  id: string;
  orderId: string;
  paymentId: string;
  refundNo: string;
  amountFen: number;
  reason: string;
  status: RefundStatus;
  actor: 'system' | 'operator';
  providerRefundId: string | null;
  lastError: string | null;
  attempts: number;
  /** The operator who completed a failed refund by hand (another way than the platform), if any. */
  handledBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

function toRefund(row: RefundRow): RefundRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    paymentId: row.payment_id,
    refundNo: row.refund_no,
    amountFen: row.amount_fen,
    reason: row.reason,
    status: row.status,
    actor: row.actor,
    providerRefundId: row.provider_refund_id,
    lastError: row.last_error,
    attempts: row.attempts,
    handledBy: row.handled_by,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export async function insertRefund(
  db: Kysely<Database>,
  r: {
    orderId: string;
    paymentId: string;
    refundNo: string;
    amountFen: number;
    reason: string;
    actor: 'system' | 'operator';
    now: Date;
  },
): Promise<RefundRecord> {
  const row = await db
    .insertInto('refunds')
    .values({
      order_id: r.orderId,
      payment_id: r.paymentId,
      refund_no: r.refundNo,
      amount_fen: r.amountFen,
      reason: r.reason.slice(0, 80),
      actor: r.actor,
      created_at: r.now,
      updated_at: r.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRefund(row);
}

export async function findRefund(db: Kysely<Database>, id: string): Promise<RefundRecord | undefined> {
  const row = await db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRefund(row) : undefined;
}

export async function findRefundByNo(
  db: Kysely<Database>,
  refundNo: string,
): Promise<RefundRecord | undefined> {
  const row = await db.selectFrom('refunds').selectAll().where('refund_no', '=', refundNo).executeTakeFirst();
  return row ? toRefund(row) : undefined;
}

/** A failed refund back to pending, to be tried again (false when it is no longer failed). */
export async function reopenFailedRefund(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('refunds')
    .set({ status: 'pending', finished_at: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function lockRefund(tx: Kysely<Database>, id: string): Promise<RefundRecord | undefined> {
  const row = await tx.selectFrom('refunds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toRefund(row) : undefined;
}

/** Sum of refunds of a payment that are not failed (pending ones count: the money is promised). */
export async function sumActiveRefunds(db: Kysely<Database>, paymentId: string): Promise<number> {
  const r = await db
    .selectFrom('refunds')
    .select(sql<number>`coalesce(sum(amount_fen), 0)::int`.as('n'))
    .where('payment_id', '=', paymentId)
    .where('status', '<>', 'failed')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function sumSucceededRefunds(db: Kysely<Database>, paymentId: string): Promise<number> {
  const r = await db
    .selectFrom('refunds')
    .select(sql<number>`coalesce(sum(amount_fen), 0)::int`.as('n'))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateRefund(
  db: Kysely<Database>,
  id: string,
  patch: {
    status: RefundStatus;
    providerRefundId?: string | null;
    lastError?: string | null;
    now: Date;
    /** A failed refund completed by hand (migration 0031). */
    handledBy?: string;
    handledNote?: string;
  },
): Promise<void> {
  const finished = patch.status === 'succeeded' || patch.status === 'failed';
  await db
    .updateTable('refunds')
    .set({
      status: patch.status,
      updated_at: patch.now,
      finished_at: finished ? patch.now : null,
      attempts: sql`attempts + 1`,
      ...(patch.providerRefundId === undefined ? {} : { provider_refund_id: patch.providerRefundId }),
      ...(patch.lastError === undefined ? {} : { last_error: patch.lastError?.slice(0, 500) ?? null }),
      ...(patch.handledBy === undefined
        ? {}
        : { handled_by: patch.handledBy, handled_note: patch.handledNote }),
    })
    .where('id', '=', id)
    .execute();
}

export async function listOpenRefunds(
  db: Kysely<Database>,
  createdBefore: Date,
  limit: number,
): Promise<RefundRecord[]> {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('status', 'in', ['pending', 'processing'])
    .where('created_at', '<=', createdBefore)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toRefund);
}

export async function listOrderRefunds(db: Kysely<Database>, orderId: string): Promise<RefundRecord[]> {
  const rows = await db
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  return rows.map(toRefund);
}
