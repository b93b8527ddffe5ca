import {
  type Database,
  type Kysely,
  type OfflineProofRow,
  type OrderPayChannel,
  type PaymentRow,
  type PaymentSource,
  type PaymentStatus,
  type RefundRow,
  type RefundStatus,
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
  patch: { status: RefundStatus; providerRefundId?: string | null; lastError?: string | null; now: Date },
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

// --- offline proofs -----------------------------------------------------------------------------

export interface ProofRecord {
  id: string;
  orderId: string;
  userId: string;
  fileKey: string | null;
  mimeType: OfflineProofRow['mime_type'];
  sizeBytes: number;
  status: 'pending' | 'confirmed' | 'rejected';
  reviewNote: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
}

function toProof(row: OfflineProofRow): ProofRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    userId: row.user_id,
    fileKey: row.file_key,
    mimeType: row.mime_type,
    sizeBytes: row.size_bytes,
    status: row.status,
    reviewNote: row.review_note,
    reviewedAt: row.reviewed_at,
    createdAt: row.created_at,
  };
}

/** Inserts a pending proof; undefined when one is already pending for the order. */
export async function insertProof(
  db: Kysely<Database>,
  p: {
    orderId: string;
    userId: string;
    fileKey: string;
    mimeType: ProofRecord['mimeType'];
    sizeBytes: number;
    now: Date;
  },
): Promise<ProofRecord | undefined> {
  const row = await db
    .insertInto('offline_proofs')
    .values({
      order_id: p.orderId,
      user_id: p.userId,
      file_key: p.fileKey,
      mime_type: p.mimeType,
      size_bytes: p.sizeBytes,
      created_at: p.now,
    })
    .onConflict((oc) => oc.column('order_id').where('status', '=', 'pending').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function findProof(db: Kysely<Database>, id: string): Promise<ProofRecord | undefined> {
  const row = await db.selectFrom('offline_proofs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function lockProof(tx: Kysely<Database>, id: string): Promise<ProofRecord | undefined> {
  const row = await tx
    .selectFrom('offline_proofs')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function findPendingProof(
  db: Kysely<Database>,
  orderId: string,
): Promise<ProofRecord | undefined> {
  const row = await db
    .selectFrom('offline_proofs')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function listOrderProofs(db: Kysely<Database>, orderId: string): Promise<ProofRecord[]> {
  const rows = await db
    .selectFrom('offline_proofs')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  return rows.map(toProof);
}

export async function listProofs(
  db: Kysely<Database>,
  status: ProofRecord['status'] | undefined,
  limit: number,
): Promise<(ProofRecord & { orderNo: string; amountFen: number })[]> {
  let query = db
    .selectFrom('offline_proofs')
    .innerJoin('orders', 'orders.id', 'offline_proofs.order_id')
    .selectAll('offline_proofs')
    .select(['orders.order_no', 'orders.amount_fen']);
  if (status) query = query.where('offline_proofs.status', '=', status);
  const rows = await query.orderBy('offline_proofs.created_at', 'desc').limit(limit).execute();
  return rows.map((row) => ({ ...toProof(row), orderNo: row.order_no, amountFen: row.amount_fen }));
}

export async function reviewProof(
  db: Kysely<Database>,
  id: string,
  status: 'confirmed' | 'rejected',
  note: string | null,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('offline_proofs')
    .set({ status, review_note: note, reviewed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
