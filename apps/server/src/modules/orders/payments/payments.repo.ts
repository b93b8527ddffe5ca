import {
  type Database,
  type Kysely,
  type OrderPayChannel,
  type PaymentRow,
  type PaymentSource,
  type PaymentStatus,
  sql,
} from '@kyfw/db';

/** SQL of payments, refunds and offline-payment proofs. */

export interface PaymentRecord {
  id: string;
  orderId: string;
  attemptId: string | null;
  channel: OrderPayChannel;
  transactionId: string;
  amountFen: number;
  paidAt: Date;
  status: PaymentStatus;
  source: PaymentSource;
  flagged: boolean;
  flagReason: string | null;
  refundedFen: number;
  createdAt: Date;
}

function toPayment(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    attemptId: row.attempt_id,
    channel: row.channel,
    transactionId: row.transaction_id,
    amountFen: row.amount_fen,
    paidAt: row.paid_at,
    status: row.status,
    source: row.source,
    flagged: row.flagged,
    flagReason: row.flag_reason,
    refundedFen: row.refunded_fen,
    createdAt: row.created_at,
  };
}

export async function findPaymentByTransaction(
  db: Kysely<Database>,
  channel: OrderPayChannel,
  transactionId: string,
): Promise<PaymentRecord | undefined> {
  const row = await db
    .selectFrom('payments')
    .selectAll()
    .where('channel', '=', channel)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

export async function findPaymentById(db: Kysely<Database>, id: string): Promise<PaymentRecord | undefined> {
  const row = await db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

export async function lockPayment(tx: Kysely<Database>, id: string): Promise<PaymentRecord | undefined> {
  const row = await tx.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

export async function findAcceptedPayment(
  db: Kysely<Database>,
  orderId: string,
): Promise<PaymentRecord | undefined> {
  const row = await db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'accepted')
    .executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

/** Inserts a payment; undefined when (channel, transaction_id) is already recorded. */
export async function insertPayment(
  db: Kysely<Database>,
  p: {
    orderId: string;
    attemptId: string | null;
    channel: OrderPayChannel;
    transactionId: string;
    amountFen: number;
    paidAt: Date;
    status: PaymentStatus;
    source: PaymentSource;
    flagReason: string | null;
    raw: Record<string, unknown>;
    now: Date;
  },
): Promise<PaymentRecord | undefined> {
  const row = await db
    .insertInto('payments')
    .values({
      order_id: p.orderId,
      attempt_id: p.attemptId,
      channel: p.channel,
      transaction_id: p.transactionId,
      amount_fen: p.amountFen,
      paid_at: p.paidAt,
      status: p.status,
      source: p.source,
      flagged: p.flagReason !== null,
      flag_reason: p.flagReason,
      raw: JSON.stringify(p.raw),
      created_at: p.now,
    })
    .onConflict((oc) => oc.columns(['channel', 'transaction_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

export async function flagPayment(db: Kysely<Database>, id: string, reason: string): Promise<void> {
  await db
    .updateTable('payments')
    .set({ flagged: true, flag_reason: reason.slice(0, 200) })
    .where('id', '=', id)
    .execute();
}

export async function setPaymentRefundedFen(
  db: Kysely<Database>,
  id: string,
  refundedFen: number,
): Promise<void> {
  await db.updateTable('payments').set({ refunded_fen: refundedFen }).where('id', '=', id).execute();
}

export async function listOrderPayments(db: Kysely<Database>, orderId: string): Promise<PaymentRecord[]> {
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('paid_at')
    .execute();
  return rows.map(toPayment);
}

export interface UserPaymentRecord extends PaymentRecord {
  orderNo: string;
  goodsName: string;
}

export async function listUserPayments(
  db: Kysely<Database>,
  userId: string,
  options: { offset: number; limit: number },
): Promise<{ list: UserPaymentRecord[]; total: number }> {
  const base = db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .where('orders.user_id', '=', userId);
  const [rows, count] = await Promise.all([
    base
      .selectAll('payments')
      .select(['orders.order_no', 'orders.goods_name'])
      .orderBy('payments.paid_at', 'desc')
      .orderBy('payments.id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({ ...toPayment(row), orderNo: row.order_no, goodsName: row.goods_name })),
    total: Number(count.n),
  };
}

export async function listFlaggedPayments(db: Kysely<Database>, limit: number) {
  const rows = await db
    .selectFrom('payments')
    .innerJoin('orders', 'orders.id', 'payments.order_id')
    .selectAll('payments')
    .select(['orders.order_no'])
    .where('payments.flagged', '=', true)
    .orderBy('payments.created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toPayment(row), orderNo: row.order_no }));
}
