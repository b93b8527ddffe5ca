import {
  type Database,
  type Kysely,
  type OrderActor,
  type OrderPayChannel,
  type OrderRow,
  type OrderStatus,
  type ServiceType,
  sql,
} from '@kyfw/db';
import type { GoodsRecord } from './goods.repo.ts';

/**
 * SQL of goods, orders, their transitions and payment attempts. Every function takes a
 * `Kysely<Database>`, which may be the caller's transaction.
 */

// --- orders -------------------------------------------------------------------------------------

export interface OrderRecord {
  id: string;
  orderNo: string;
  userId: string;
  serviceType: ServiceType;
  goodsId: string;
  goodsName: string;
  unitPriceFen: number;
  unitSize: number;
  unit: string;
  quantity: number;
  amountFen: number;
  status: OrderStatus;
  payChannel: OrderPayChannel | null;
  paidAt: Date | null;
  expireAt: Date;
  serviceRef: string | null;
  meta: Record<string, unknown>;
  refundedFen: number;
  paidHooksAt: Date | null;
  deletedByUser: boolean;
  /** The service could not be delivered and the payment is refunded automatically (markUndelivered). */
  undeliveredAt: Date | null;
  /** What happened, in a few words (e.g. 检测失败). */
  undeliveredText: string | null;
  /** That automatic refund was refused by the platform: an operator takes over (markAutoRefundFailed). */
  autoRefundFailedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * A transfer proof of the order waits for an operator (read with `offlinePendingColumn`; false
   * where the query did not read it — the writes' RETURNING).
   */
  offlinePending: boolean;
}

/** `offline_pending` of an orders query: a proof of the order is pending review. */
const offlinePendingColumn = sql<boolean>`exists (
  select 1 from offline_proofs where offline_proofs.order_id = orders.id and offline_proofs.status = 'pending'
)`.as('offline_pending');

export function toOrder(row: OrderRow & { offline_pending?: boolean }): OrderRecord {
  return {
    id: row.id,
    orderNo: row.order_no,
    userId: row.user_id,
    serviceType: row.service_type,
    goodsId: row.goods_id,
    goodsName: row.goods_name,
    unitPriceFen: row.unit_price_fen,
    unitSize: row.unit_size,
    unit: row.unit,
    quantity: row.quantity,
    amountFen: row.amount_fen,
    status: row.status,
    payChannel: row.pay_channel,
    paidAt: row.paid_at,
    expireAt: row.expire_at,
    serviceRef: row.service_ref,
    meta: (row.meta as Record<string, unknown> | null) ?? {},
    refundedFen: row.refunded_fen,
    paidHooksAt: row.paid_hooks_at,
    deletedByUser: row.deleted_by_user,
    undeliveredAt: row.undelivered_at,
    undeliveredText: row.undelivered_text,
    autoRefundFailedAt: row.auto_refund_failed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    offlinePending: row.offline_pending === true,
  };
}

export interface NewOrder {
  orderNo: string;
  userId: string;
  serviceType: ServiceType;
  goods: GoodsRecord;
  /** The name on the order when it differs from the goods' (an order with add-ons names every part). */
  goodsName?: string;
  quantity: number;
  amountFen: number;
  expireAt: Date;
  serviceRef: string | null;
  meta: Record<string, unknown>;
  now: Date;
}

/** Inserts an order; undefined when the order number is taken (the caller draws another). */
export async function insertOrder(db: Kysely<Database>, o: NewOrder): Promise<OrderRecord | undefined> {
  const row = await db
    .insertInto('orders')
    .values({
      order_no: o.orderNo,
      user_id: o.userId,
      service_type: o.serviceType,
      goods_id: o.goods.id,
      goods_name: o.goodsName ?? o.goods.name,
      unit_price_fen: o.goods.unitPriceFen,
      unit_size: o.goods.unitSize,
      unit: o.goods.unit,
      quantity: o.quantity,
      amount_fen: o.amountFen,
      expire_at: o.expireAt,
      service_ref: o.serviceRef,
      meta: JSON.stringify(o.meta),
      created_at: o.now,
      updated_at: o.now,
    })
    .onConflict((oc) => oc.column('order_no').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

export async function findOrderById(db: Kysely<Database>, id: string): Promise<OrderRecord | undefined> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .select(offlinePendingColumn)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

export async function findOrderByNo(db: Kysely<Database>, orderNo: string): Promise<OrderRecord | undefined> {
  const row = await db
    .selectFrom('orders')
    .selectAll()
    .select(offlinePendingColumn)
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

/** Locks the order row until the end of the transaction `tx`. */
export async function lockOrder(tx: Kysely<Database>, id: string): Promise<OrderRecord | undefined> {
  const row = await tx.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

/**
 * Locks every order of the account (ascending id, so two such transactions never wait on each
 * other in a cycle) until the end of `tx`: account deletion, before anything else of the orders.
 */
export async function lockUserOrders(tx: Kysely<Database>, userId: string): Promise<number> {
  const rows = await tx
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.length;
}

/** The user's own order; undefined for another user's order exactly as for a missing one. */
export async function findUserOrder(
  db: Kysely<Database>,
  userId: string,
  id: string,
  options: { includeHidden?: boolean } = {},
): Promise<OrderRecord | undefined> {
  let query = db
    .selectFrom('orders')
    .selectAll()
    .select(offlinePendingColumn)
    .where('id', '=', id)
    .where('user_id', '=', userId);
  if (!options.includeHidden) query = query.where('deleted_by_user', '=', false);
  const row = await query.executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

export async function listUserOrders(
  db: Kysely<Database>,
  userId: string,
  options: { serviceTypes?: readonly ServiceType[]; offset: number; limit: number },
): Promise<{ list: OrderRecord[]; total: number }> {
  let base = db.selectFrom('orders').where('user_id', '=', userId).where('deleted_by_user', '=', false);
  if (options.serviceTypes?.length) base = base.where('service_type', 'in', options.serviceTypes);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .select(offlinePendingColumn)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toOrder), total: Number(count.n) };
}

/**
 * Moves an order from `from` to `to` if it is still in `from` (the conditional UPDATE is the
 * guard against races) and records the transition. Returns the updated order, or undefined when
 * the order was no longer in `from`.
 */
export async function updateOrderStatus(
  tx: Kysely<Database>,
  change: {
    orderId: string;
    from: OrderStatus;
    to: OrderStatus;
    actor: OrderActor;
    reason: string;
    now: Date;
    set?: Partial<{ payChannel: OrderPayChannel; paidAt: Date; refundedFen: number }>;
  },
): Promise<OrderRecord | undefined> {
  const set = change.set ?? {};
  const row = await tx
    .updateTable('orders')
    .set({
      status: change.to,
      updated_at: change.now,
      ...(set.payChannel === undefined ? {} : { pay_channel: set.payChannel }),
      ...(set.paidAt === undefined ? {} : { paid_at: set.paidAt }),
      ...(set.refundedFen === undefined ? {} : { refunded_fen: set.refundedFen }),
    })
    .where('id', '=', change.orderId)
    .where('status', '=', change.from)
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  await insertTransition(tx, {
    orderId: change.orderId,
    from: change.from,
    to: change.to,
    actor: change.actor,
    reason: change.reason,
    now: change.now,
  });
  return toOrder(row);
}

export async function setOrderRefundedFen(
  tx: Kysely<Database>,
  orderId: string,
  refundedFen: number,
  now: Date,
) {
  await tx
    .updateTable('orders')
    .set({ refunded_fen: refundedFen, updated_at: now })
    .where('id', '=', orderId)
    .execute();
}

/**
 * The order's service cannot be delivered and its payment is being refunded automatically: never
 * invoiced, and shown as '<text>，正在自动退款' / '，已自动退款'. The first reason stays.
 */
export async function markUndelivered(
  tx: Kysely<Database>,
  orderId: string,
  text: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('orders')
    .set({ undelivered_at: now, undelivered_text: text.slice(0, 30), updated_at: now })
    .where('id', '=', orderId)
    .where('undelivered_at', 'is', null)
    .execute();
}

/**
 * The automatic refund of an undelivered order failed for good (the platform refused it, or an
 * offline transfer must be returned by hand): from now on the order says an operator will take
 * care of it. Orders that are not undelivered are left as they are.
 */
export async function markAutoRefundFailed(db: Kysely<Database>, orderId: string, now: Date): Promise<void> {
  await db
    .updateTable('orders')
    .set({ auto_refund_failed_at: now, updated_at: now })
    .where('id', '=', orderId)
    .where('undelivered_at', 'is not', null)
    .where('auto_refund_failed_at', 'is', null)
    .execute();
}

export async function setPaidHooksDone(tx: Kysely<Database>, orderId: string, now: Date): Promise<void> {
  await tx.updateTable('orders').set({ paid_hooks_at: now }).where('id', '=', orderId).execute();
}

export async function setServiceRef(
  db: Kysely<Database>,
  orderId: string,
  serviceRef: string,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('orders')
    .set({ service_ref: serviceRef, updated_at: now })
    .where('id', '=', orderId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function hideOrder(
  db: Kysely<Database>,
  orderId: string,
  statuses: readonly OrderStatus[],
  now: Date,
) {
  const r = await db
    .updateTable('orders')
    .set({ deleted_by_user: true, deleted_at: now, updated_at: now })
    .where('id', '=', orderId)
    .where('status', 'in', statuses)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function insertTransition(
  db: Kysely<Database>,
  t: {
    orderId: string;
    from: OrderStatus | null;
    to: OrderStatus;
    actor: OrderActor;
    reason: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('order_transitions')
    .values({
      order_id: t.orderId,
      from_status: t.from,
      to_status: t.to,
      actor: t.actor,
      reason: t.reason.slice(0, 200),
      created_at: t.now,
    })
    .execute();
}

export interface TransitionRecord {
  from: OrderStatus | null;
  to: OrderStatus;
  actor: OrderActor;
  reason: string;
  createdAt: Date;
}

export async function listTransitions(db: Kysely<Database>, orderId: string): Promise<TransitionRecord[]> {
  const rows = await db
    .selectFrom('order_transitions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    from: r.from_status,
    to: r.to_status,
    actor: r.actor,
    reason: r.reason,
    createdAt: r.created_at,
  }));
}

/** Pending orders whose payment time is over, oldest first. */
export async function listExpiredPendingOrders(
  db: Kysely<Database>,
  now: Date,
  limit: number,
): Promise<OrderRecord[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('status', '=', 'pending_payment')
    .where('expire_at', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('offline_proofs')
            .select('offline_proofs.id')
            .whereRef('offline_proofs.order_id', '=', 'orders.id')
            .where('offline_proofs.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('expire_at')
    .limit(limit)
    .execute();
  return rows.map(toOrder);
}

/** Paid orders whose onPaid hooks have not run (a hook failed), paid before `before`. */
export async function listOrdersAwaitingHooks(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<OrderRecord[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('paid_hooks_at', 'is', null)
    .where('paid_at', 'is not', null)
    .where('paid_at', '<=', before)
    .where('status', 'in', ['paid', 'processing', 'done'])
    .orderBy('paid_at')
    .limit(limit)
    .execute();
  return rows.map(toOrder);
}

/** The account's phone number (the refund notice); null when it has none or is gone. */
export async function findUserPhone(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirst();
  return row?.phone_number ?? null;
}
