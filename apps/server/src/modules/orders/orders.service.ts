import { randomInt } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { type Database, type Kysely, type OrderStatus, type ServiceType, sql } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { isUuid } from '../../lib/uuid.ts';
import { lockActiveAccount } from '../accounts/index.ts';
import { getGoods, priceFor } from './goods.service.ts';
import { assertTransition } from './order-state.ts';
import {
  findOrderById,
  findUserOrder,
  hideOrder,
  insertOrder,
  insertTransition,
  listTransitions,
  listUserOrders,
  lockOrder,
  type OrderRecord,
  setPaidHooksDone,
  setServiceRef,
  updateOrderStatus,
} from './orders.repo.ts';
import type { OrdersRuntime } from './orders.runtime.ts';
import { ORDER_STATUS_TEXTS, TEXTS } from './orders.texts.ts';
import { toOrderView } from './orders.view.ts';
import { isServiceUndeliverable } from './paid-hooks.ts';

const CST_OFFSET_MS = 8 * 60 * 60 * 1000;
const MAX_META_BYTES = 8 * 1024;

/** 'KY' + yyyyMMddHHmmss in China time + 6 random digits, e.g. KY20250528095201123456. */
export function generateOrderNo(now: Date): string {
  const stamp = new Date(now.getTime() + CST_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);
  return `KY${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

export interface CreateOrderInput {
  userId: string;
  serviceType: ServiceType;
  goodsId: string;
  /** In the goods' quantity unit, e.g. characters for 查重 (priced per 1,000). */
  quantity: number;
  /** The service's own record id (e.g. the check id); may be set later with setOrderServiceRef. */
  serviceRef?: string | null;
  /** Small JSON the service wants back (titles, options); at most 8 KiB. Not shown to other users. */
  meta?: Record<string, unknown>;
  /**
   * Goods sold together with `goodsId` in this one order (e.g. AIGC detection with a check), each
   * priced from the catalogue like the main goods. The order's amount is the sum of the parts, its
   * name names every part (本科毕业论文查重＋AIGC检测) and `meta.parts` lists them (OrderView.parts).
   */
  addons?: { goodsId: string; quantity: number }[];
}

/** One part of an order with add-ons (meta.parts), as priced at ordering time. */
export interface OrderPart {
  goodsId: string;
  goodsName: string;
  quantity: number;
  amountFen: number;
}

/** The order's name: every part's name joined by ＋, within the 60 characters of goods_name. */
function orderNameOf(names: string[]): string {
  return [...names.join('＋')].slice(0, 60).join('');
}

/**
 * Creates a pending order priced from the catalogue (never from the browser). Runs in `tx` when
 * given (so a service can create its record and the order atomically), else in its own transaction.
 * The account's row is held first (lockActiveAccount), so an order is never created for an account
 * whose deletion has committed, and a deletion waits for an order being created.
 * @throws AppError GOODS_NOT_FOUND (unknown/inactive goods, or goods of another service),
 *   QUANTITY_OUT_OF_RANGE, UNAUTHORIZED (the account was deleted meanwhile).
 */
export async function createOrder(rt: OrdersRuntime, input: CreateOrderInput, tx?: Kysely<Database>) {
  const meta = input.meta ?? {};
  if (Buffer.byteLength(JSON.stringify(meta)) > MAX_META_BYTES)
    throw new Error('order meta larger than 8 KiB');
  const run = async (db: Kysely<Database>): Promise<OrderRecord> => {
    await lockActiveAccount(db, input.userId);
    const goods = await getGoods(db, input.goodsId);
    if (!goods || goods.serviceType !== input.serviceType) throw new AppError(ErrorCode.GOODS_NOT_FOUND);
    const parts: OrderPart[] = [
      {
        goodsId: goods.id,
        goodsName: goods.name,
        quantity: input.quantity,
        amountFen: priceFor(goods, input.quantity).amountFen,
      },
    ];
    for (const addon of input.addons ?? []) {
      const extra = await getGoods(db, addon.goodsId);
      if (!extra || extra.serviceType !== input.serviceType) throw new AppError(ErrorCode.GOODS_NOT_FOUND);
      parts.push({
        goodsId: extra.id,
        goodsName: extra.name,
        quantity: addon.quantity,
        amountFen: priceFor(extra, addon.quantity).amountFen,
      });
    }
    const amountFen = parts.reduce((sum, p) => sum + p.amountFen, 0);
    const withParts = parts.length > 1 ? { ...meta, parts } : meta;
    const now = rt.now();
    // Whole seconds: the platforms' time_expire has no milliseconds.
    const expireAt = new Date(Math.floor((now.getTime() + rt.config.expireMinutes * 60_000) / 1000) * 1000);
    for (let attempt = 0; attempt < 5; attempt++) {
      const order = await insertOrder(db, {
        orderNo: generateOrderNo(now),
        userId: input.userId,
        serviceType: input.serviceType,
        goods,
        ...(parts.length > 1 ? { goodsName: orderNameOf(parts.map((p) => p.goodsName)) } : {}),
        quantity: input.quantity,
        amountFen,
        expireAt,
        serviceRef: input.serviceRef ?? null,
        meta: withParts,
        now,
      });
      if (!order) continue;
      await insertTransition(db, {
        orderId: order.id,
        from: null,
        to: 'pending_payment',
        actor: 'user',
        reason: TEXTS.transition.created,
        now,
      });
      return order;
    }
    throw new Error('could not draw a free order number');
  };
  return tx ? run(tx) : rt.db.transaction().execute(run);
}

/** The user's own order, or AppError RESOURCE_NOT_FOUND — also for another user's order. */
export async function getOrderForUser(
  db: Kysely<Database>,
  userId: string,
  orderId: string,
  options: { serviceTypes?: readonly ServiceType[] } = {},
): Promise<OrderRecord> {
  const order = isUuid(orderId) ? await findUserOrder(db, userId, orderId) : undefined;
  if (!order || (options.serviceTypes && !options.serviceTypes.includes(order.serviceType))) {
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在或已删除');
  }
  return order;
}

export function listOrdersForUser(
  db: Kysely<Database>,
  userId: string,
  options: { serviceTypes?: readonly ServiceType[]; page: number; pageSize: number },
) {
  return listUserOrders(db, userId, {
    serviceTypes: options.serviceTypes,
    offset: (options.page - 1) * options.pageSize,
    limit: options.pageSize,
  });
}

export async function getOrderHistory(db: Kysely<Database>, orderId: string) {
  return (await listTransitions(db, orderId)).map((t) => ({
    status: t.to,
    statusText: ORDER_STATUS_TEXTS[t.to],
    reason: t.reason,
    at: t.createdAt.toISOString(),
  }));
}

/**
 * Hides the user's finished order (done, cancelled, expired, refunded) from their lists; money
 * records stay. @throws AppError ORDER_NOT_DELETABLE for pending or in-service orders.
 */
export async function deleteOrderForUser(rt: OrdersRuntime, userId: string, orderId: string): Promise<void> {
  const order = await getOrderForUser(rt.db, userId, orderId);
  const deletable: OrderStatus[] = ['done', 'cancelled', 'expired', 'refunded'];
  if (!deletable.includes(order.status)) {
    throw new AppError(
      ErrorCode.ORDER_NOT_DELETABLE,
      order.status === 'pending_payment' ? TEXTS.orderStillPending : TEXTS.orderInService,
    );
  }
  if (!(await hideOrder(rt.db, order.id, deletable, rt.now())))
    throw new AppError(ErrorCode.ORDER_NOT_DELETABLE);
}

/** Sets the service's record id on an order (when the service creates its record after the order). */
export async function setOrderServiceRef(
  rt: OrdersRuntime,
  orderId: string,
  serviceRef: string,
): Promise<void> {
  if (!(await setServiceRef(rt.db, orderId, serviceRef, rt.now())))
    throw new Error(`order ${orderId} not found`);
}

/**
 * paid -> processing (the service started its work). Idempotent: an order already processing or
 * done is returned unchanged. @throws InvalidTransitionError from any other status.
 */
export function markProcessing(
  rt: OrdersRuntime,
  orderId: string,
  reason: string = TEXTS.transition.processing,
) {
  return moveForward(rt, orderId, 'processing', ['processing', 'done'], reason);
}

/** paid|processing -> done (the service delivered). Idempotent for a done order. */
export function markDone(rt: OrdersRuntime, orderId: string, reason: string = TEXTS.transition.done) {
  return moveForward(rt, orderId, 'done', ['done'], reason);
}

async function moveForward(
  rt: OrdersRuntime,
  orderId: string,
  to: OrderStatus,
  alreadyThere: readonly OrderStatus[],
  reason: string,
): Promise<OrderRecord> {
  return rt.db.transaction().execute(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    if (alreadyThere.includes(order.status)) return order;
    // Refunded (an operator gave the money back): the service ended; say so, never 服务器繁忙.
    if (order.status === 'refunded') throw new AppError(ErrorCode.CONFLICT, TEXTS.orderRefundedEnded);
    assertTransition(order.status, to, 'system');
    const updated = await updateOrderStatus(tx, {
      orderId,
      from: order.status,
      to,
      actor: 'system',
      reason,
      now: rt.now(),
    });
    return updated!;
  });
}

/** What the service's onPaid handlers made of a just-paid order. */
export type PaidHooksOutcome =
  | { status: 'done' }
  /** A handler failed: its writes are rolled back and the reconciliation job calls it again. */
  | { status: 'failed' }
  /** A handler answered serviceUndeliverable(reason): nothing of the service was kept. */
  | { status: 'undeliverable'; reason: string; statusText: string };

/**
 * Runs the service's onPaid handlers for a just-paid order inside `tx`, behind a savepoint: a
 * failing handler is rolled back alone and retried by the reconciliation job; the payment stands.
 * A handler that says the service can no longer be delivered has every handler's writes rolled
 * back and is not called again; the caller refunds the payment (payments/confirm.service.ts).
 */
export async function runPaidHooks(
  rt: OrdersRuntime,
  tx: Kysely<Database>,
  order: OrderRecord,
): Promise<PaidHooksOutcome> {
  const handlers = rt.paidHooks.handlersOf(order.serviceType);
  let undeliverable: { reason: string; statusText: string } | undefined;
  if (handlers.length > 0) {
    await sql`savepoint orders_paid_hooks`.execute(tx);
    try {
      const view = toOrderView(order, rt.now());
      for (const handler of handlers) {
        const answer = await handler({ tx, order: view, userId: order.userId });
        if (isServiceUndeliverable(answer)) {
          undeliverable = {
            reason: answer.reason,
            statusText: answer.statusText ?? TEXTS.undeliveredDefault,
          };
          break;
        }
      }
    } catch (error) {
      await sql`rollback to savepoint orders_paid_hooks`.execute(tx);
      rt.logger.error(
        { err: error, orderNo: order.orderNo, serviceType: order.serviceType },
        'onPaid handler failed; the payment is recorded and the handler will be retried',
      );
      return { status: 'failed' };
    }
    if (undeliverable === undefined) await sql`release savepoint orders_paid_hooks`.execute(tx);
    else await sql`rollback to savepoint orders_paid_hooks`.execute(tx);
  }
  await setPaidHooksDone(tx, order.id, rt.now());
  return undeliverable === undefined ? { status: 'done' } : { status: 'undeliverable', ...undeliverable };
}

export async function findOrder(db: Kysely<Database>, orderId: string): Promise<OrderRecord | undefined> {
  return isUuid(orderId) ? findOrderById(db, orderId) : undefined;
}
