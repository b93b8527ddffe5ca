import { randomInt } from 'node:crypto';
import { API_PREFIX, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, OrderActor, OrderPayChannel, PaymentSource, ServiceType } from '@kyfw/db';
import { enqueue } from '../../../jobs/queue.ts';
import { AppError } from '../../../lib/app-error.ts';
import {
  formatFenAsYuan,
  type IncomingNotification,
  type NotificationAck,
  type PayChannel,
  PaymentNotificationError,
  PaymentProviderError,
} from '../../../providers/payment/index.ts';
import { isPaidStatus } from '../order-state.ts';
import {
  type AttemptRecord,
  claimAttemptQuery,
  closeAttempt,
  countAttempts,
  findAttemptByOutTradeNo,
  findOrderById,
  findOrderByNo,
  insertOrGetOpenAttempt,
  listAttempts,
  listExpiredPendingOrders,
  listOpenAttempts,
  listOrdersAwaitingHooks,
  lockOrder,
  markAttemptPaid,
  markAutoRefundFailed,
  markUndelivered,
  type OrderRecord,
  setAttemptCode,
  setOrderRefundedFen,
  updateOrderStatus,
} from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderForUser, runPaidHooks } from '../orders.service.ts';
import { PAY_CHANNEL_TEXTS, REFUND_STATUS_TEXTS, TEXTS } from '../orders.texts.ts';
import { money, paymentStatusTextOf } from '../orders.view.ts';
import {
  findAcceptedPayment,
  findPaymentById,
  findPaymentByTransaction,
  findPendingProof,
  findRefund,
  flagPayment,
  insertPayment,
  insertRefund,
  listOpenRefunds,
  listUserPayments,
  lockPayment,
  lockRefund,
  type RefundRecord,
  setPaymentRefundedFen,
  sumActiveRefunds,
  sumSucceededRefunds,
  updateRefund,
} from './payments.repo.ts';

/** QR codes one order may get per channel (each switch back to a channel makes a new one). */
const MAX_ATTEMPTS_PER_CHANNEL = 20;
/** A QR code needs at least this long before the order expires, or paying it would race the expiry. */
const MIN_PAY_WINDOW_MS = 30_000;
/** After a platform's time_expire, how long we still treat an unscanned Alipay QR code as payable (clock skew). */
const EXPIRY_GRACE_MS = 2 * 60_000;
/** The status poll asks the platform itself at most this often per QR code, and not for brand-new ones. */
const POLL_QUERY_INTERVAL_MS = 10_000;
const POLL_QUERY_MIN_AGE_MS = 10_000;
/** Reconciliation leaves fresh QR codes to the notification. */
const RECONCILE_MIN_AGE_MS = 30_000;
/** The platform's paid time may lag our expire_at by clock skew. */
const PAID_IN_TIME_TOLERANCE_MS = 60_000;

export function notifyUrlOf(rt: OrdersRuntime, channel: PayChannel): string {
  return `${rt.publicBaseUrl}${API_PREFIX}/pay/notify/${channel}`;
}

// --- starting a payment -------------------------------------------------------------------------

export interface StartPaymentInput {
  userId: string;
  orderId: string;
  payType: PayChannel;
  /** Restricts to the calling service's orders (e.g. ['check'] for /freeCheck/...). */
  serviceTypes?: readonly ServiceType[];
}

export interface StartPaymentResult {
  /** What the QR code encodes; the browser draws it locally. */
  codeUrl: string;
  orderNo: string;
  /** The platform's order number; equals orderNo unless the user came back to a channel they had left. */
  outTradeNo: string;
  payType: PayChannel;
  /** Yuan, 2 decimals, e.g. '26.00'. */
  amount: string;
  amountFen: number;
  /** ISO-8601: the QR code stops working then. */
  expireAt: string;
}

/** Refuses orders that cannot be paid (any more), with the message the user sees. */
function assertPayable(order: OrderRecord, now: Date): void {
  if (isPaidStatus(order.status)) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (order.status === 'cancelled' || order.status === 'refunded')
    throw new AppError(ErrorCode.ORDER_CANCELLED);
  if (order.status === 'expired' || now.getTime() >= order.expireAt.getTime() - MIN_PAY_WINDOW_MS) {
    throw new AppError(ErrorCode.ORDER_EXPIRED);
  }
}

/**
 * Returns the QR code for paying the user's order with WeChat Pay or Alipay. Reuses the open QR
 * code of the same channel; switching channels first closes the other one at its platform (so one
 * order is not paid twice). Amount, description and expiry come from the order, never the browser.
 * @throws AppError RESOURCE_NOT_FOUND (not the user's order), ORDER_ALREADY_PAID, ORDER_EXPIRED,
 *   ORDER_CANCELLED, OFFLINE_PROOF_PENDING, PAYMENT_UNAVAILABLE (platform down; retry).
 */
export async function startPayment(rt: OrdersRuntime, input: StartPaymentInput): Promise<StartPaymentResult> {
  const order = await getOrderForUser(rt.db, input.userId, input.orderId, {
    serviceTypes: input.serviceTypes,
  });
  assertPayable(order, rt.now());
  if (await findPendingProof(rt.db, order.id)) throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);

  const attempts = await listAttempts(rt.db, order.id);
  if (attempts.some((a) => a.status === 'open' && a.channel !== input.payType)) {
    const closed = await closeOpenAttempts(rt, order, { except: input.payType });
    if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
    if (closed.unavailable) throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  }
  const result = (attempt: AttemptRecord, codeUrl: string): StartPaymentResult => ({
    codeUrl,
    orderNo: order.orderNo,
    outTradeNo: attempt.outTradeNo,
    payType: input.payType,
    ...money(order.amountFen),
    expireAt: order.expireAt.toISOString(),
  });

  const open = attempts.find((a) => a.status === 'open' && a.channel === input.payType);
  if (open?.codeUrl) return result(open, open.codeUrl);

  const previous = open ? 0 : await countAttempts(rt.db, order.id, input.payType);
  if (previous >= MAX_ATTEMPTS_PER_CHANNEL) {
    throw new AppError(ErrorCode.RATE_LIMITED, '切换支付方式次数过多，请重新下单');
  }
  // The row exists before the platform is asked, so a notification or the reconciliation finds
  // it even if the create answer is lost; a retry sends the very same input (idempotent).
  const attempt =
    open ??
    (await insertOrGetOpenAttempt(rt.db, {
      orderId: order.id,
      channel: input.payType,
      outTradeNo: previous === 0 ? order.orderNo : `${order.orderNo}-${previous + 1}`,
      amountFen: order.amountFen,
      expireAt: order.expireAt,
      now: rt.now(),
    }));
  if (attempt.codeUrl) return result(attempt, attempt.codeUrl);

  let codeUrl: string;
  try {
    ({ codeUrl } = await rt.providers[input.payType].createQr({
      orderNo: attempt.outTradeNo,
      amountFen: attempt.amountFen,
      description: order.goodsName,
      expireAt: attempt.expireAt,
      notifyUrl: notifyUrlOf(rt, input.payType),
    }));
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    rt.logger.warn(
      { channel: input.payType, orderNo: order.orderNo, kind: error.kind, err: error },
      'creating the payment QR code failed',
    );
    if (error.kind === 'ORDER_PAID') {
      await reconcileAttempt(rt, attempt);
      throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
    }
    if (error.kind === 'ORDER_CLOSED') await closeAttempt(rt.db, attempt.id, rt.now());
    throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  }
  await setAttemptCode(rt.db, attempt.id, codeUrl, rt.now());
  return result(attempt, codeUrl);
}

/**
 * Closes the order's QR codes before it is paid another way (offline transfer).
 * @throws AppError ORDER_ALREADY_PAID when a platform reports it paid meanwhile.
 */
export async function closeQrCodesForOfflinePayment(rt: OrdersRuntime, order: OrderRecord): Promise<void> {
  const closed = await closeOpenAttempts(rt, order);
  if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  // A platform that cannot be reached now: the reconciliation keeps asking about that code, and a
  // payment that still arrives is refunded as a duplicate once the transfer is confirmed.
}

/**
 * Closes the order's open QR codes at their platforms. A platform that says "already paid" gets
 * its payment recorded (paid: true). Alipay QR codes never scanned have no trade to close: they
 * stay open here and the reconciliation keeps asking until their expiry has passed.
 */
async function closeOpenAttempts(
  rt: OrdersRuntime,
  order: OrderRecord,
  options: { except?: PayChannel } = {},
): Promise<{ paid: boolean; unavailable: boolean }> {
  let paid = false;
  let unavailable = false;
  for (const attempt of await listAttempts(rt.db, order.id)) {
    if (attempt.status !== 'open' || attempt.channel === options.except) continue;
    try {
      const closed = await rt.providers[attempt.channel].close(attempt.outTradeNo);
      if (closed.state === 'CLOSED') await closeAttempt(rt.db, attempt.id, rt.now());
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.kind === 'ORDER_PAID') {
        await reconcileAttempt(rt, attempt);
        paid = true;
      } else if (error.kind === 'ORDER_NOT_FOUND' || error.kind === 'ORDER_CLOSED') {
        await closeAttempt(rt.db, attempt.id, rt.now());
      } else {
        rt.logger.warn(
          { channel: attempt.channel, orderNo: order.orderNo, kind: error.kind },
          'closing a QR code failed',
        );
        unavailable = true;
      }
    }
  }
  return { paid, unavailable };
}

// --- status -------------------------------------------------------------------------------------

/**
 * The pay status the payment dialog polls every 3 s: payStatus 1 once paid. While an order is
 * pending with a QR code older than 10 s, this also asks the platform (at most every 10 s per QR
 * code), so a slow or lost notification does not keep the user waiting.
 */
export async function getPayStatus(
  rt: OrdersRuntime,
  userId: string,
  orderId: string,
  options: { serviceTypes?: readonly ServiceType[] } = {},
) {
  let order = await getOrderForUser(rt.db, userId, orderId, options);
  if (order.status === 'pending_payment') {
    const now = rt.now();
    const candidates = (await listAttempts(rt.db, order.id)).filter(
      (a) =>
        a.status === 'open' && a.codeUrl && now.getTime() - a.createdAt.getTime() >= POLL_QUERY_MIN_AGE_MS,
    );
    for (const attempt of candidates) {
      if (!(await claimAttemptQuery(rt.db, attempt.id, now, POLL_QUERY_INTERVAL_MS))) continue;
      await reconcileAttempt(rt, attempt).catch((error) =>
        rt.logger.warn({ err: error, orderNo: order.orderNo }, 'pay status: platform query failed'),
      );
    }
    if (candidates.length > 0) order = await getOrderForUser(rt.db, userId, orderId, options);
  }
  const proof = order.status === 'pending_payment' ? await findPendingProof(rt.db, order.id) : undefined;
  return {
    payStatus: isPaidStatus(order.status) ? 1 : 0,
    status: order.status,
    orderNo: order.orderNo,
    payChannel: order.payChannel,
    paidAt: order.paidAt?.toISOString() ?? null,
    expireAt: order.expireAt.toISOString(),
    /** An offline transfer proof is waiting for an operator. */
    offlinePending: proof !== undefined,
  };
}

// --- recording payments -------------------------------------------------------------------------

export interface ConfirmPaymentInput {
  channel: OrderPayChannel;
  /** The platform order number (wx/ali). */
  outTradeNo?: string;
  /** Offline payments name the order directly. */
  orderId?: string;
  transactionId: string;
  amountFen: number;
  paidAt: Date;
  raw: Record<string, unknown>;
  source: PaymentSource;
}

export type ConfirmOutcome =
  | 'paid'
  /** Accepted (the order was payable), but its service can no longer be delivered: refunded. */
  | 'undeliverable'
  | 'already_recorded'
  | 'late'
  | 'duplicate'
  | 'amount_mismatch'
  | 'unknown_order';

const ACTOR_OF_SOURCE: Record<PaymentSource, OrderActor> = {
  notification: 'provider',
  reconciliation: 'system',
  operator: 'operator',
};

/**
 * Records money the platform (or an operator) says was received, exactly once per transaction,
 * under a lock on the order row:
 * - amount differs from the order -> recorded as amount_mismatch, flagged, order untouched;
 * - order pending (or expired, but paid before its expiry) -> paid, onPaid handlers run; when
 *   the service says it can no longer be delivered (e.g. its record was deleted), the payment is
 *   refunded in full at once and the order ends refunded;
 * - order cancelled/expired (paid after expiry) or already paid by another transaction ->
 *   recorded as late/duplicate and refunded automatically.
 * A repeated delivery of the same transaction changes nothing.
 */
export async function confirmPayment(
  rt: OrdersRuntime,
  input: ConfirmPaymentInput,
): Promise<{ outcome: ConfirmOutcome; orderId?: string }> {
  let attempt: AttemptRecord | undefined;
  let orderId = input.orderId;
  if (input.channel !== 'offline' && input.outTradeNo) {
    attempt = await findAttemptByOutTradeNo(rt.db, input.channel, input.outTradeNo);
    orderId = attempt?.orderId ?? (await findOrderByNo(rt.db, input.outTradeNo))?.id;
  }
  if (!orderId) {
    rt.logger.error(
      { channel: input.channel, outTradeNo: input.outTradeNo, transactionId: input.transactionId },
      'payment for an unknown order: nothing recorded',
    );
    return { outcome: 'unknown_order' };
  }
  const knownOrderId = orderId;

  const result = await rt.db.transaction().execute(async (tx) => {
    const order = await lockOrder(tx, knownOrderId);
    if (!order) return { outcome: 'unknown_order' as const };
    if (await findPaymentByTransaction(tx, input.channel, input.transactionId)) {
      return { outcome: 'already_recorded' as const };
    }
    const now = rt.now();
    if (attempt) await markAttemptPaid(tx, attempt.id, now);
    const base = {
      orderId: order.id,
      attemptId: attempt?.id ?? null,
      channel: input.channel,
      transactionId: input.transactionId,
      amountFen: input.amountFen,
      paidAt: input.paidAt,
      source: input.source,
      raw: input.raw,
      now,
    };
    if (input.amountFen !== order.amountFen) {
      await insertPayment(tx, {
        ...base,
        status: 'amount_mismatch',
        flagReason: `金额不符：订单应付 ${formatFenAsYuan(order.amountFen)} 元，平台实收 ${formatFenAsYuan(input.amountFen)} 元`,
      });
      rt.logger.error(
        {
          orderNo: order.orderNo,
          channel: input.channel,
          expectedFen: order.amountFen,
          paidFen: input.amountFen,
        },
        'payment amount does not match the order: not marked paid, flagged for an operator',
      );
      return { outcome: 'amount_mismatch' as const };
    }
    const paidInTime = input.paidAt.getTime() <= order.expireAt.getTime() + PAID_IN_TIME_TOLERANCE_MS;
    if (order.status === 'pending_payment' || (order.status === 'expired' && paidInTime)) {
      await insertPayment(tx, { ...base, status: 'accepted', flagReason: null });
      const reason =
        order.status === 'expired'
          ? TEXTS.transition.paidInTime
          : input.source === 'notification'
            ? TEXTS.transition.paidNotification
            : input.source === 'operator'
              ? TEXTS.transition.paidOperator
              : TEXTS.transition.paidReconciliation;
      const paid = await updateOrderStatus(tx, {
        orderId: order.id,
        from: order.status,
        to: 'paid',
        actor: ACTOR_OF_SOURCE[input.source],
        reason,
        now,
        set: { payChannel: input.channel, paidAt: input.paidAt },
      });
      const hooks = await runPaidHooksOrRefund(rt, tx, paid!);
      if (hooks.refundId) return { outcome: 'undeliverable' as const, refundId: hooks.refundId };
      return { outcome: 'paid' as const };
    }
    // Money for an order that can no longer take it: keep it on record and give it back.
    const status: 'late' | 'duplicate' =
      order.status === 'cancelled' || order.status === 'expired' ? 'late' : 'duplicate';
    const payment = await insertPayment(tx, { ...base, status, flagReason: null });
    const refund = await insertRefund(tx, {
      orderId: order.id,
      paymentId: payment!.id,
      refundNo: generateRefundNo(now),
      amountFen: input.amountFen,
      reason: status === 'late' ? TEXTS.refundReasonLate : TEXTS.refundReasonDuplicate,
      actor: 'system',
      now,
    });
    rt.logger.warn(
      { orderNo: order.orderNo, orderStatus: order.status, channel: input.channel, status },
      'payment for an order that cannot take it: refunding automatically',
    );
    return { outcome: status, refundId: refund.id };
  });

  if (result.outcome === 'paid' || result.outcome === 'undeliverable') {
    // The other channel's QR code must not take a second payment.
    const order = await findOrderById(rt.db, knownOrderId);
    if (order) {
      await closeOpenAttempts(rt, order).catch((error) =>
        rt.logger.warn({ err: error, orderNo: order.orderNo }, 'closing the other QR codes failed'),
      );
    }
  }
  if ('refundId' in result && result.refundId) {
    await executeRefund(rt, result.refundId).catch((error) =>
      rt.logger.warn(
        { err: error, refundId: result.refundId },
        'automatic refund failed; the reconciliation retries it',
      ),
    );
  }
  return { outcome: result.outcome, orderId: knownOrderId };
}

/**
 * Runs the onPaid handlers of a just-paid order inside `tx` (orders.service runPaidHooks). When
 * the service answers that it can no longer be delivered, what is left of the accepted payment is
 * refunded in full (recordUndeliveredRefund), carried out by the caller after the commit (or by
 * the reconciliation); once it succeeds the order becomes refunded (completeRefund).
 */
async function runPaidHooksOrRefund(
  rt: OrdersRuntime,
  tx: Kysely<Database>,
  order: OrderRecord,
): Promise<{ ok: boolean; refundId?: string }> {
  const hooks = await runPaidHooks(rt, tx, order);
  if (hooks.status !== 'undeliverable') return { ok: hooks.status === 'done' };
  const refundId = await recordUndeliveredRefund(rt, tx, order, hooks);
  return { ok: true, ...(refundId ? { refundId } : {}) };
}

/**
 * The order's service cannot be delivered: inside `tx`, holding the order's lock, the order is
 * marked undelivered (never invoiced; its status says what happened and that the money is being
 * given back) and a full refund of what is left of its accepted payment is recorded, actor system,
 * with `reason`. Returns the refund to carry out after the commit (executeRefund; the
 * reconciliation retries it), or undefined when nothing is left to refund.
 */
async function recordUndeliveredRefund(
  rt: OrdersRuntime,
  tx: Kysely<Database>,
  order: OrderRecord,
  why: { reason: string; statusText: string },
): Promise<string | undefined> {
  const now = rt.now();
  await markUndelivered(tx, order.id, why.statusText, now);
  const accepted = await findAcceptedPayment(tx, order.id);
  const payment = accepted ? await lockPayment(tx, accepted.id) : undefined;
  const left = payment ? payment.amountFen - (await sumActiveRefunds(tx, payment.id)) : 0;
  if (!payment || left <= 0) {
    rt.logger.error(
      { orderNo: order.orderNo, reason: why.reason },
      'service undeliverable but no payment left to refund',
    );
    return undefined;
  }
  const refund = await insertRefund(tx, {
    orderId: order.id,
    paymentId: payment.id,
    refundNo: generateRefundNo(now),
    amountFen: left,
    reason: why.reason,
    actor: 'system',
    now,
  });
  rt.logger.warn(
    { orderNo: order.orderNo, serviceType: order.serviceType, reason: why.reason },
    'paid order whose service can no longer be delivered: refunding automatically',
  );
  return refund.id;
}

export interface RefundUndeliveredInput {
  /** The refund's reason, shown in the order's history (at most 80 characters). */
  reason: string;
  /** What happened in a few words (at most 30 characters, e.g. 检测失败), shown as the order's status. */
  statusText: string;
  /**
   * Marks the service's own record inside the transaction, after the order's lock and before the
   * payment's (the lock order, README); false: nothing to do (e.g. already failed), no refund.
   */
  update?: (tx: Kysely<Database>) => Promise<boolean>;
  /**
   * Run inside the caller's transaction (e.g. an account deletion, which holds the order's lock
   * already) instead of one of its own. The refund is then carried out by the `orders.refund` job,
   * enqueued in that transaction: it runs once the caller commits (never if it rolls back).
   */
  tx?: Kysely<Database>;
}

/** The job carrying out one recorded refund at its platform (orders.jobs.ts defines it). */
export const ORDERS_REFUND_JOB = 'orders.refund';

/**
 * A paid order's service failed for good after it was paid (e.g. the check's retries are used
 * up): in one transaction the order is locked, `update` marks the service's record, and the order
 * is marked undelivered with a full refund of what is left of its payment (recordUndeliveredRefund);
 * then the refund is carried out at the platform (retried by the reconciliation while the platform
 * is down). The order becomes refunded when the platform confirms it. An order not (or no longer)
 * paid is left as it is. Returns whether `update` applied and the refund recorded, if any.
 * With `input.tx` all of it happens inside the caller's transaction and the refund is carried out
 * by a job queued in it.
 */
export async function refundUndeliveredOrder(
  rt: OrdersRuntime,
  orderId: string,
  input: RefundUndeliveredInput,
): Promise<{ applied: boolean; refundId?: string }> {
  const work = async (tx: Kysely<Database>): Promise<{ applied: boolean; refundId?: string }> => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    if (input.update && !(await input.update(tx))) return { applied: false };
    if (!isPaidStatus(order.status)) return { applied: true };
    const refundId = await recordUndeliveredRefund(rt, tx, order, input);
    return { applied: true, ...(refundId ? { refundId } : {}) };
  };
  if (input.tx) {
    const result = await work(input.tx);
    if (result.refundId) {
      await enqueue(
        input.tx,
        ORDERS_REFUND_JOB,
        { refundId: result.refundId },
        { dedupeKey: `refund:${result.refundId}` },
      );
    }
    return result;
  }
  const result = await rt.db.transaction().execute(work);
  if (result.refundId) {
    const refundId = result.refundId;
    await executeRefund(rt, refundId).catch((error) =>
      rt.logger.warn({ err: error, refundId }, 'automatic refund failed; the reconciliation retries it'),
    );
  }
  return result;
}

/**
 * Retries the onPaid handlers of paid orders whose handlers failed (reconciliation job); a service
 * that can no longer be delivered gets its payment refunded, as at payment time.
 */
export async function retryPaidHooks(rt: OrdersRuntime, limit = 50): Promise<number> {
  const due = await listOrdersAwaitingHooks(rt.db, new Date(rt.now().getTime() - 5_000), limit);
  let done = 0;
  for (const candidate of due) {
    const result = await rt.db.transaction().execute(async (tx) => {
      const order = await lockOrder(tx, candidate.id);
      if (!order || order.paidHooksAt || !isPaidStatus(order.status)) return { ok: false };
      return runPaidHooksOrRefund(rt, tx, order);
    });
    if (result.ok) done++;
    if (result.refundId) {
      const refundId = result.refundId;
      await executeRefund(rt, refundId).catch((error) =>
        rt.logger.warn({ err: error, refundId }, 'automatic refund failed; the reconciliation retries it'),
      );
    }
  }
  return done;
}

/**
 * One platform notification: verify (signature, merchant, decryption), record the payment, and
 * answer the way the platform expects. Only a failure on our side (database) answers "fail", so
 * the platform redelivers; forged or foreign notifications are refused and logged.
 */
export async function handleNotification(
  rt: OrdersRuntime,
  channel: PayChannel,
  incoming: IncomingNotification,
): Promise<NotificationAck> {
  const provider = rt.providers[channel];
  let notification: ReturnType<typeof provider.verifyNotification>;
  try {
    notification = provider.verifyNotification(incoming);
  } catch (error) {
    if (!(error instanceof PaymentNotificationError)) throw error;
    rt.logger.warn({ channel, reason: error.reason, message: error.message }, 'payment notification refused');
    return provider.acknowledge({ ok: false, message: '验签失败', statusCode: 401 });
  }
  if (notification.state !== 'SUCCESS') {
    rt.logger.info(
      { channel, orderNo: notification.orderNo, state: notification.state },
      'payment notification without success: nothing to record',
    );
    return provider.acknowledge({ ok: true });
  }
  try {
    const { outcome } = await confirmPayment(rt, {
      channel,
      outTradeNo: notification.orderNo,
      transactionId: notification.transactionId,
      amountFen: notification.amountFen,
      paidAt: notification.paidAt ?? rt.now(),
      raw: notification.raw,
      source: 'notification',
    });
    rt.logger.info(
      { channel, orderNo: notification.orderNo, notificationId: notification.notificationId, outcome },
      'payment notification handled',
    );
    return provider.acknowledge({ ok: true });
  } catch (error) {
    rt.logger.error(
      { err: error, channel, orderNo: notification.orderNo },
      'payment notification could not be recorded',
    );
    return provider.acknowledge({ ok: false, message: '系统繁忙', statusCode: 500 });
  }
}

// --- reconciliation and expiry (jobs) -----------------------------------------------------------

/**
 * Asks the platform about one QR code and acts on the answer: a payment is recorded (a lost
 * notification never loses money), a closed one is closed here, and one that should no longer be
 * payable (order not pending, or expired) is closed at the platform.
 */
export async function reconcileAttempt(
  rt: OrdersRuntime,
  attempt: AttemptRecord,
): Promise<'paid' | 'closed' | 'open'> {
  const provider = rt.providers[attempt.channel];
  const now = rt.now();
  const order = await findOrderById(rt.db, attempt.orderId);
  const pastExpiry = now.getTime() >= attempt.expireAt.getTime() + EXPIRY_GRACE_MS;
  let query: Awaited<ReturnType<typeof provider.query>>;
  try {
    query = await provider.query(attempt.outTradeNo);
  } catch (error) {
    if (error instanceof PaymentProviderError && error.kind === 'ORDER_NOT_FOUND') {
      if (pastExpiry || order?.status !== 'pending_payment') {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
      return 'open';
    }
    throw error;
  }
  if (query.state === 'SUCCESS' || query.state === 'REFUND') {
    if (!query.transactionId || query.amountFen === undefined) return 'open';
    await confirmPayment(rt, {
      channel: attempt.channel,
      outTradeNo: attempt.outTradeNo,
      transactionId: query.transactionId,
      amountFen: query.amountFen,
      paidAt: query.paidAt ?? now,
      raw: { query: { state: query.state, transactionId: query.transactionId, amountFen: query.amountFen } },
      source: 'reconciliation',
    });
    return 'paid';
  }
  if (query.state === 'CLOSED' || query.state === 'PAYERROR') {
    await closeAttempt(rt.db, attempt.id, now);
    return 'closed';
  }
  // NOTPAY / USERPAYING
  if (order?.status !== 'pending_payment' || now.getTime() >= attempt.expireAt.getTime()) {
    try {
      const closed = await provider.close(attempt.outTradeNo);
      if (closed.state === 'CLOSED' || pastExpiry) {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.kind === 'ORDER_CLOSED' || error.kind === 'ORDER_NOT_FOUND') {
        await closeAttempt(rt.db, attempt.id, now);
        return 'closed';
      }
      // ORDER_PAID: the next run's query records it; anything else: try again next run.
    }
  }
  return 'open';
}

/**
 * How often the reconciliation asks about one open QR code: every run while it is young (a payment
 * is most likely then), every 5 minutes once it is 10 minutes old, and every run again once its
 * expiry has passed (it is due to be closed). Abandoned codes thus cost ~30 queries, not ~120.
 */
function reconcileIntervalMs(attempt: AttemptRecord, now: Date): number {
  const age = now.getTime() - attempt.createdAt.getTime();
  if (now.getTime() >= attempt.expireAt.getTime() || age < 10 * 60_000) return RECONCILE_MIN_AGE_MS / 2;
  return 5 * 60_000;
}

/** The reconciliation job: open QR codes, unfinished refunds, failed onPaid handlers. */
export async function reconcile(rt: OrdersRuntime, limit = 100) {
  const now = rt.now();
  const summary = { attempts: 0, paid: 0, closed: 0, errors: 0, refunds: 0, hooks: 0 };
  for (const attempt of await listOpenAttempts(
    rt.db,
    new Date(now.getTime() - RECONCILE_MIN_AGE_MS),
    limit,
  )) {
    if (!(await claimAttemptQuery(rt.db, attempt.id, now, reconcileIntervalMs(attempt, now)))) continue;
    summary.attempts++;
    try {
      const state = await reconcileAttempt(rt, attempt);
      if (state === 'paid') summary.paid++;
      if (state === 'closed') summary.closed++;
    } catch (error) {
      summary.errors++;
      rt.logger.warn({ err: error, outTradeNo: attempt.outTradeNo }, 'reconciliation: platform query failed');
    }
  }
  for (const refund of await listOpenRefunds(rt.db, new Date(now.getTime() - 5_000), limit)) {
    summary.refunds++;
    await executeRefund(rt, refund.id).catch((error) =>
      rt.logger.warn({ err: error, refundNo: refund.refundNo }, 'reconciliation: refund failed'),
    );
  }
  summary.hooks = await retryPaidHooks(rt);
  return summary;
}

/**
 * The expiry job: pending orders past their payment time (and without an offline proof under
 * review) are closed at the platforms and marked expired. A platform that reports the order paid
 * meanwhile wins: the order becomes paid instead.
 */
export async function expireDueOrders(rt: OrdersRuntime, limit = 100) {
  let expired = 0;
  let paid = 0;
  for (const order of await listExpiredPendingOrders(rt.db, rt.now(), limit)) {
    const closed = await closeOpenAttempts(rt, order);
    if (closed.paid) {
      paid++;
      continue;
    }
    const done = await rt.db.transaction().execute(async (tx) => {
      const current = await lockOrder(tx, order.id);
      if (current?.status !== 'pending_payment') return false;
      if (await findPendingProof(tx, order.id)) return false;
      return (
        (await updateOrderStatus(tx, {
          orderId: order.id,
          from: 'pending_payment',
          to: 'expired',
          actor: 'system',
          reason: TEXTS.transition.expired,
          now: rt.now(),
        })) !== undefined
      );
    });
    if (done) expired++;
  }
  return { expired, paid };
}

// --- cancel -------------------------------------------------------------------------------------

/**
 * The user cancels a pending order: its QR codes are closed at the platforms first, so a payment
 * cannot slip in after the cancel (a platform that reports it paid makes the cancel fail). The
 * transition is recorded as the user's, with `reason` (default 用户取消订单).
 * @throws AppError ORDER_NOT_CANCELLABLE / ORDER_ALREADY_PAID / OFFLINE_PROOF_PENDING / PAYMENT_UNAVAILABLE
 */
export async function cancelOrder(
  rt: OrdersRuntime,
  userId: string,
  orderId: string,
  reason: string = TEXTS.transition.cancelledByUser,
): Promise<void> {
  const order = await getOrderForUser(rt.db, userId, orderId);
  if (isPaidStatus(order.status)) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (order.status !== 'pending_payment') throw new AppError(ErrorCode.ORDER_NOT_CANCELLABLE);
  if (await findPendingProof(rt.db, order.id)) throw new AppError(ErrorCode.OFFLINE_PROOF_PENDING);
  const closed = await closeOpenAttempts(rt, order);
  if (closed.paid) throw new AppError(ErrorCode.ORDER_ALREADY_PAID);
  if (closed.unavailable) throw new AppError(ErrorCode.PAYMENT_UNAVAILABLE);
  const cancelled = await rt.db.transaction().execute((tx) =>
    updateOrderStatus(tx, {
      orderId: order.id,
      from: 'pending_payment',
      to: 'cancelled',
      actor: 'user',
      reason,
      now: rt.now(),
    }),
  );
  if (!cancelled) {
    const current = await findOrderById(rt.db, order.id);
    throw new AppError(
      current && isPaidStatus(current.status)
        ? ErrorCode.ORDER_ALREADY_PAID
        : ErrorCode.ORDER_NOT_CANCELLABLE,
    );
  }
}

// --- refunds ------------------------------------------------------------------------------------

/** 'RF' + yyyyMMddHHmmss + 6 random digits. */
function generateRefundNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `RF${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/**
 * An operator refunds (part of) the payment that paid an order; the order becomes refunded when
 * fully refunded. Offline payments are returned by bank transfer by the operator; the refund is
 * then only recorded.
 * @throws AppError RESOURCE_NOT_FOUND / REFUND_NOT_ALLOWED / REFUND_FAILED (platform refused).
 */
export async function requestRefund(
  rt: OrdersRuntime,
  input: { orderNo: string; amountFen?: number; reason: string },
): Promise<RefundRecord> {
  const order = await findOrderByNo(rt.db, input.orderNo);
  if (!order) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在');
  const payment = await findAcceptedPayment(rt.db, order.id);
  if (!payment) throw new AppError(ErrorCode.REFUND_NOT_ALLOWED);
  const refund = await rt.db.transaction().execute(async (tx) => {
    // Lock order (README): the order, then its payment.
    await lockOrder(tx, order.id);
    await lockPayment(tx, payment.id);
    const left = payment.amountFen - (await sumActiveRefunds(tx, payment.id));
    const amountFen = input.amountFen ?? left;
    if (amountFen <= 0 || amountFen > left) throw new AppError(ErrorCode.REFUND_NOT_ALLOWED);
    return insertRefund(tx, {
      orderId: order.id,
      paymentId: payment.id,
      refundNo: generateRefundNo(rt.now()),
      amountFen,
      reason: input.reason,
      actor: 'operator',
      now: rt.now(),
    });
  });
  await executeRefund(rt, refund.id);
  const after = (await findRefund(rt.db, refund.id))!;
  if (after.status === 'failed')
    throw new AppError(ErrorCode.REFUND_FAILED, `退款失败：${after.lastError ?? '平台拒绝'}`);
  return after;
}

/**
 * Carries out a recorded refund at the platform (idempotent by refund number: running it again,
 * e.g. from the reconciliation job after a network failure, never refunds twice).
 */
export async function executeRefund(rt: OrdersRuntime, refundId: string): Promise<void> {
  const refund = await findRefund(rt.db, refundId);
  if (!refund || refund.status === 'succeeded' || refund.status === 'failed') return;
  const payment = await findPaymentById(rt.db, refund.paymentId);
  if (!payment) throw new Error(`payment ${refund.paymentId} missing`);
  if (payment.channel === 'offline') {
    if (refund.actor === 'operator') return completeRefund(rt, refund.id, null);
    return refundFailed(rt, refund, { lastError: '线下款项需人工退回', flagReason: '线下款项需人工退回' });
  }
  const attempt = payment.attemptId
    ? (await listAttempts(rt.db, payment.orderId)).find((a) => a.id === payment.attemptId)
    : undefined;
  const order = await findOrderById(rt.db, payment.orderId);
  const outTradeNo = attempt?.outTradeNo ?? order!.orderNo;
  try {
    const result = await rt.providers[payment.channel].refund({
      orderNo: outTradeNo,
      refundNo: refund.refundNo,
      amountFen: refund.amountFen,
      totalFen: payment.amountFen,
      reason: refund.reason,
    });
    if (result.state === 'SUCCESS') return completeRefund(rt, refund.id, result.refundId);
    if (result.state === 'PROCESSING') {
      await updateRefund(rt.db, refund.id, {
        status: 'processing',
        providerRefundId: result.refundId,
        now: rt.now(),
      });
      return;
    }
    await refundFailed(rt, refund, {
      providerRefundId: result.refundId,
      lastError: `平台退款状态 ${result.state}`,
      flagReason: `退款失败（${result.state}），需人工处理`,
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    if (error.isRetryable) {
      await updateRefund(rt.db, refund.id, {
        status: refund.status,
        lastError: error.message,
        now: rt.now(),
      });
      rt.logger.warn(
        { refundNo: refund.refundNo, kind: error.kind },
        'refund: platform unavailable, will retry',
      );
      return;
    }
    await refundFailed(rt, refund, {
      lastError: error.message,
      flagReason: `退款被拒绝（${error.kind}），需人工处理`,
    });
    rt.logger.error(
      { refundNo: refund.refundNo, kind: error.kind, err: error },
      'refund refused by the platform',
    );
  }
}

/**
 * A refund that will not happen by itself: failed, its payment flagged for an operator, and an
 * automatic refund of an undelivered order marks that order (it no longer says 正在自动退款, but
 * that customer service will be in touch; markAutoRefundFailed).
 */
async function refundFailed(
  rt: OrdersRuntime,
  refund: RefundRecord,
  why: { lastError: string; flagReason: string; providerRefundId?: string },
): Promise<void> {
  const now = rt.now();
  await updateRefund(rt.db, refund.id, {
    status: 'failed',
    ...(why.providerRefundId ? { providerRefundId: why.providerRefundId } : {}),
    lastError: why.lastError,
    now,
  });
  await flagPayment(rt.db, refund.paymentId, why.flagReason);
  if (refund.actor === 'system') await markAutoRefundFailed(rt.db, refund.orderId, now);
}

async function completeRefund(
  rt: OrdersRuntime,
  refundId: string,
  providerRefundId: string | null,
): Promise<void> {
  const known = await findRefund(rt.db, refundId);
  if (!known) return;
  await rt.db.transaction().execute(async (tx) => {
    // Lock order (README): the order, its payment, then the refund — as a payment being accepted
    // or an account being deleted takes them, so none of these waits on another in a cycle.
    const order = await lockOrder(tx, known.orderId);
    const payment = await lockPayment(tx, known.paymentId);
    const refund = await lockRefund(tx, refundId);
    if (!refund || refund.status === 'succeeded') return;
    const now = rt.now();
    await updateRefund(tx, refundId, { status: 'succeeded', providerRefundId, lastError: null, now });
    const refundedFen = await sumSucceededRefunds(tx, refund.paymentId);
    await setPaymentRefundedFen(tx, refund.paymentId, refundedFen);
    if (payment?.status !== 'accepted') return;
    if (!order) return;
    if (refundedFen >= order.amountFen && isPaidStatus(order.status)) {
      await updateOrderStatus(tx, {
        orderId: order.id,
        from: order.status,
        to: 'refunded',
        actor: refund.actor === 'operator' ? 'operator' : 'system',
        reason: `${TEXTS.transition.refunded}：${refund.reason}`,
        now,
        set: { refundedFen: order.amountFen },
      });
    } else {
      await setOrderRefundedFen(tx, order.id, Math.min(refundedFen, order.amountFen), now);
    }
  });
}

// --- payment records ----------------------------------------------------------------------------

/** /payment/records: the user's payments, newest first (time, method, amount, order number). */
export async function listPaymentRecords(
  db: Kysely<Database>,
  userId: string,
  page: number,
  pageSize: number,
) {
  const { list, total } = await listUserPayments(db, userId, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return {
    list: list.map((p) => ({
      paymentId: p.id,
      time: p.paidAt.toISOString(),
      method: p.channel,
      methodText: PAY_CHANNEL_TEXTS[p.channel],
      ...money(p.amountFen),
      orderNo: p.orderNo,
      orderId: p.orderId,
      goodsName: p.goodsName,
      status: p.status,
      statusText: paymentStatusTextOf(p),
      refundedFen: p.refundedFen,
      refundedAmount: formatFenAsYuan(p.refundedFen),
    })),
    total,
  };
}

export function toRefundView(refund: RefundRecord) {
  return {
    refundId: refund.id,
    refundNo: refund.refundNo,
    ...money(refund.amountFen),
    reason: refund.reason,
    status: refund.status,
    statusText: REFUND_STATUS_TEXTS[refund.status],
    createdAt: refund.createdAt.toISOString(),
    finishedAt: refund.finishedAt?.toISOString() ?? null,
  };
}
