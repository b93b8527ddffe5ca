import { randomInt } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../../jobs/queue.ts';
import { AppError } from '../../../lib/app-error.ts';
import { PaymentProviderError } from '../../../providers/payment/index.ts';
import { isPaidStatus } from '../order-state.ts';
import {
  findOrderById,
  findOrderByNo,
  lockOrder,
  markAutoRefundFailed,
  markUndelivered,
  type OrderRecord,
  setOrderRefundedFen,
  updateOrderStatus,
} from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { TEXTS } from '../orders.texts.ts';
import { toOrderView } from '../orders.view.ts';
import { listAttempts } from './attempts.repo.ts';
import {
  findAcceptedPayment,
  findPaymentById,
  flagPayment,
  lockPayment,
  setPaymentRefundedFen,
} from './payments.repo.ts';
import {
  findRefund,
  findRefundByNo,
  insertRefund,
  lockRefund,
  type RefundRecord,
  reopenFailedRefund,
  sumActiveRefunds,
  sumSucceededRefunds,
  updateRefund,
} from './refunds.repo.ts';

/**
 * The order's service cannot be delivered: inside `tx`, holding the order's lock, the order is
 * marked undelivered (never invoiced; its status says what happened and that the money is being
 * given back) and a full refund of what is left of its accepted payment is recorded, actor system,
 * with `reason`. Returns the refund to carry out after the commit (executeRefund; the
 * reconciliation retries it), or undefined when nothing is left to refund.
 */
export async function recordUndeliveredRefund(
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

/** The job telling the user of an operator's refund by SMS (refund-notice.ts). */
export const REFUND_NOTICE_JOB = 'orders.refund-notice';

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
 * Part of a paid order's service failed for good while the rest was delivered (e.g. the AIGC
 * detection ordered with a check): in one transaction the order is locked, `update` marks the
 * service's record (false: nothing to do, no refund), and a refund of `amountFen` (at most what is
 * left of the accepted payment; actor system, `reason`) is recorded; it is then carried out at the
 * platform (the reconciliation retries it). The order keeps its status (the rest was delivered);
 * its refunded amount grows when the platform confirms, and an invoice covers only what was kept.
 * Returns whether `update` applied, the refund recorded (if any) and its amount.
 */
export async function refundPartOfOrder(
  rt: OrdersRuntime,
  orderId: string,
  input: { amountFen: number; reason: string; update?: (tx: Kysely<Database>) => Promise<boolean> },
): Promise<{ applied: boolean; refundId?: string; amountFen: number }> {
  const result = await rt.db.transaction().execute(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new Error(`order ${orderId} not found`);
    if (input.update && !(await input.update(tx))) return { applied: false, amountFen: 0 };
    if (!isPaidStatus(order.status)) return { applied: true, amountFen: 0 };
    const accepted = await findAcceptedPayment(tx, order.id);
    const payment = accepted ? await lockPayment(tx, accepted.id) : undefined;
    const left = payment ? payment.amountFen - (await sumActiveRefunds(tx, payment.id)) : 0;
    const amountFen = Math.min(input.amountFen, left);
    if (!payment || amountFen <= 0) return { applied: true, amountFen: 0 };
    const now = rt.now();
    const refund = await insertRefund(tx, {
      orderId: order.id,
      paymentId: payment.id,
      refundNo: generateRefundNo(now),
      amountFen,
      reason: input.reason,
      actor: 'system',
      now,
    });
    rt.logger.warn(
      { orderNo: order.orderNo, amountFen, reason: input.reason },
      'part of a paid order could not be delivered: refunding that part automatically',
    );
    return { applied: true, refundId: refund.id, amountFen };
  });
  if (result.refundId) {
    const refundId = result.refundId;
    await executeRefund(rt, refundId).catch((error) =>
      rt.logger.warn({ err: error, refundId }, 'automatic refund failed; the reconciliation retries it'),
    );
  }
  return result;
}

// --- refunds ------------------------------------------------------------------------------------

/** 'RF' + yyyyMMddHHmmss + 6 random digits. */
export function generateRefundNo(now: Date): string {
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
    const locked = (await lockOrder(tx, order.id)) ?? order;
    await lockPayment(tx, payment.id);
    const left = payment.amountFen - (await sumActiveRefunds(tx, payment.id));
    const amountFen = input.amountFen ?? left;
    if (amountFen <= 0 || amountFen > left) throw new AppError(ErrorCode.REFUND_NOT_ALLOWED);
    const recorded = await insertRefund(tx, {
      orderId: order.id,
      paymentId: payment.id,
      refundNo: generateRefundNo(rt.now()),
      amountFen,
      reason: input.reason,
      actor: 'operator',
      now: rt.now(),
    });
    // Everything left goes back: the service ends (a commission leaves the queue, decision 0031).
    if (amountFen === left && isPaidStatus(locked.status)) {
      const view = toOrderView(locked, rt.now());
      for (const handler of rt.refundHooks.handlersOf(locked.serviceType))
        await handler({ tx, order: view, userId: locked.userId, reason: input.reason });
    }
    await enqueue(
      tx,
      REFUND_NOTICE_JOB,
      { refundId: recorded.id },
      { dedupeKey: `refund-notice:${recorded.id}`, maxAttempts: 1 },
    );
    return recorded;
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

// --- the failed-refund queue (operator console) ---------------------------------------------------

async function failedRefundByNo(rt: OrdersRuntime, refundNo: string): Promise<RefundRecord> {
  const refund = await findRefundByNo(rt.db, refundNo);
  if (!refund) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.refundNotFound);
  if (refund.status !== 'failed') throw new AppError(ErrorCode.CONFLICT, TEXTS.refundNotFailed);
  return refund;
}

/**
 * An operator tries a failed refund again at the platform (same refund number: the platform never
 * refunds twice). Answers the refund afterwards: succeeded, processing, or failed again.
 * @throws AppError RESOURCE_NOT_FOUND / CONFLICT (not a failed refund).
 */
export async function retryFailedRefund(rt: OrdersRuntime, refundNo: string): Promise<RefundRecord> {
  const refund = await failedRefundByNo(rt, refundNo);
  if (!(await reopenFailedRefund(rt.db, refund.id, rt.now()))) {
    throw new AppError(ErrorCode.CONFLICT, TEXTS.refundNotFailed);
  }
  await executeRefund(rt, refund.id);
  return (await findRefund(rt.db, refund.id))!;
}

/**
 * An operator returned the money of a failed refund another way (a bank transfer) and says so:
 * the refund succeeds with who and how, and the order becomes refunded when nothing is left.
 * @throws AppError RESOURCE_NOT_FOUND / CONFLICT (not a failed refund).
 */
export async function completeFailedRefundByHand(
  rt: OrdersRuntime,
  input: { refundNo: string; note: string; by: string },
): Promise<RefundRecord> {
  const refund = await failedRefundByNo(rt, input.refundNo);
  await completeRefund(rt, refund.id, null, { by: input.by, note: input.note });
  return (await findRefund(rt.db, refund.id))!;
}

async function completeRefund(
  rt: OrdersRuntime,
  refundId: string,
  providerRefundId: string | null,
  byHand?: { by: string; note: string },
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
    if (byHand && refund.status !== 'failed') return;
    const now = rt.now();
    await updateRefund(tx, refundId, {
      status: 'succeeded',
      providerRefundId,
      lastError: null,
      now,
      ...(byHand ? { handledBy: byHand.by, handledNote: byHand.note } : {}),
    });
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
