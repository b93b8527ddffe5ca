import type { Database, Kysely, ServiceType } from '@kyfw/db';
import { getGoods, listGoods, priceFor, toGoodsView } from './goods.service.ts';
import { cancelOrder } from './order-lifecycle.service.ts';
import type { OrdersRuntime } from './orders.runtime.ts';
import {
  type CreateOrderInput,
  createOrder,
  findOrder,
  getOrderForUser,
  markDone,
  markProcessing,
  setOrderServiceRef,
} from './orders.service.ts';
import { toOrderView } from './orders.view.ts';
import { listOrderRefunds } from './payments/refunds.repo.ts';
import {
  type RefundUndeliveredInput,
  refundPartOfOrder,
  refundUndeliveredOrder,
} from './payments/refunds.service.ts';
import { type StartPaymentInput, startPayment } from './payments/start.service.ts';
import { getPayStatus } from './payments/status.service.ts';

export type { GoodsRecord } from './goods.service.ts';
export type { OrderView } from './orders.view.ts';
export {
  type PaidHandler,
  type RefundHandler,
  type ServiceUndeliverable,
  serviceUndeliverable,
} from './paid-hooks.ts';
export type { StartPaymentResult } from './payments/start.service.ts';

/**
 * The orders service API for other modules (check, reduction, AI writing, …). A module reaches
 * orders only through this (never the repos):
 *
 *   const orders = services.orders.api;          // in createService(deps): deps.services.orders.api
 *   const goods = await orders.listGoods('check');
 *   const order = await orders.createOrder({ userId, serviceType: 'check', goodsId, quantity: chars,
 *     serviceRef: checkId, meta: { title } }, { tx });       // tx optional: join your transaction
 *   const pay = await orders.startPayment({ userId, orderId, payType: 'wx', serviceTypes: ['check'] });
 *   const { payStatus, status } = await orders.getPayStatus(userId, orderId, { serviceTypes: ['check'] });
 *   services.orders.onPaid('check', async ({ tx, order }) => { ...enqueue the check job in tx... });
 *   //  ...or, when the record it pays for is gone: return serviceUndeliverable('…'); (refunded)
 *   await orders.markProcessing(orderId); ... await orders.markDone(orderId);
 *   await orders.refundUndelivered(orderId, { reason, statusText, update }); // failed for good: refunded
 *   await orders.cancelOrder(userId, orderId, { reason: '…' });   // the user gave the service up
 *
 * Failures meant for the user are AppErrors (see docs/api/orders.md).
 */
export function createOrdersApi(runtime: OrdersRuntime) {
  const { db } = runtime;
  const rt = (): OrdersRuntime => runtime;
  return {
    getGoods: (goodsId: string) => getGoods(db, goodsId),
    listGoods: (serviceType?: ServiceType) => listGoods(db, serviceType),
    priceFor,
    toGoodsView,
    /** A pending order priced from the catalogue. @throws AppError GOODS_NOT_FOUND / QUANTITY_OUT_OF_RANGE */
    async createOrder(input: CreateOrderInput, options: { tx?: Kysely<Database> } = {}) {
      const runtime = rt();
      return toOrderView(await createOrder(runtime, input, options.tx), runtime.now());
    },
    /** The user's own order; AppError RESOURCE_NOT_FOUND for a missing or another user's order. */
    async getOrderForUser(
      userId: string,
      orderId: string,
      options: { serviceTypes?: readonly ServiceType[] } = {},
    ) {
      const runtime = rt();
      return toOrderView(await getOrderForUser(db, userId, orderId, options), runtime.now());
    },
    /**
     * Any order by id (for jobs of the service); undefined when missing. `tx`: read it inside your
     * transaction (e.g. while holding a lock on your own record).
     */
    async getOrder(orderId: string, options: { tx?: Kysely<Database> } = {}) {
      const order = await findOrder(options.tx ?? db, orderId);
      return order ? toOrderView(order, rt().now()) : undefined;
    },
    /** QR code for WeChat Pay / Alipay: { codeUrl, orderNo, outTradeNo, payType, amount, amountFen, expireAt }. */
    startPayment: (input: StartPaymentInput) => startPayment(rt(), input),
    /** { payStatus: 0|1, status, orderNo, payChannel, paidAt, expireAt, offlinePending }. */
    getPayStatus: (
      userId: string,
      orderId: string,
      options: { serviceTypes?: readonly ServiceType[] } = {},
    ) => getPayStatus(rt(), userId, orderId, options),
    setServiceRef: (orderId: string, serviceRef: string) => setOrderServiceRef(rt(), orderId, serviceRef),
    /**
     * The user's pending order -> cancelled, as /order/cancel does (QR codes closed at the platforms
     * first; a payment arriving later is refunded automatically), recorded with `reason`.
     * @throws AppError RESOURCE_NOT_FOUND / ORDER_NOT_CANCELLABLE / ORDER_ALREADY_PAID /
     *   OFFLINE_PROOF_PENDING / PAYMENT_UNAVAILABLE
     */
    cancelOrder: (userId: string, orderId: string, options: { reason?: string } = {}) =>
      cancelOrder(rt(), userId, orderId, options.reason),
    /** paid -> processing; idempotent. */
    async markProcessing(orderId: string, reason?: string) {
      const runtime = rt();
      return toOrderView(await markProcessing(runtime, orderId, reason), runtime.now());
    },
    /**
     * The paid order's service failed for good (e.g. the check's retries are used up): the money
     * goes back. One transaction locks the order, runs `update(tx)` (mark your record failed; false:
     * nothing to do), marks the order undelivered (status '<statusText>，正在自动退款', never
     * invoiced) and records a full refund (actor system, `reason`); the refund is then carried out
     * at the platform (the reconciliation retries it) and the order becomes refunded
     * ('<statusText>，已自动退款'). Lock order: the order, then your record (README, "Lock order").
     * `tx`: inside your transaction instead (e.g. an account deletion hook); the refund is then
     * carried out by a job queued in it, once it commits.
     */
    refundUndelivered: (orderId: string, input: RefundUndeliveredInput) =>
      refundUndeliveredOrder(rt(), orderId, input),
    /**
     * Part of the paid order's service failed for good, the rest was delivered (a check's AIGC
     * add-on): `update(tx)` under the order's lock, then a refund of `amountFen` (at most what is
     * left) is recorded and carried out; the order keeps its status.
     */
    refundPart: (
      orderId: string,
      input: { amountFen: number; reason: string; update?: (tx: Kysely<Database>) => Promise<boolean> },
    ) => refundPartOfOrder(rt(), orderId, input),
    /**
     * The automatic (actor system) refunds of an order, oldest first, as a service shows where the
     * money it gave back is: pending/processing (正在退款), succeeded (byHand: an operator returned
     * it another way after the platform refused), failed (refused by the platform; an operator takes over).
     */
    async systemRefundsOf(orderId: string) {
      return (await listOrderRefunds(db, orderId))
        .filter((r) => r.actor === 'system')
        .map((r) => ({
          refundNo: r.refundNo,
          amountFen: r.amountFen,
          status: r.status,
          byHand: r.handledBy !== null,
        }));
    },
    /** paid|processing -> done; idempotent. */
    async markDone(orderId: string, reason?: string) {
      const runtime = rt();
      return toOrderView(await markDone(runtime, orderId, reason), runtime.now());
    },
  };
}

export type OrdersApi = ReturnType<typeof createOrdersApi>;
