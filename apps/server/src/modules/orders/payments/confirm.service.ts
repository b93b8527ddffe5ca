import type { Database, Kysely, OrderActor, OrderPayChannel, PaymentSource } from '@kyfw/db';
import { formatFenAsYuan } from '../../../providers/payment/index.ts';
import { isPaidStatus } from '../order-state.ts';
import {
  findOrderById,
  findOrderByNo,
  listOrdersAwaitingHooks,
  lockOrder,
  type OrderRecord,
  updateOrderStatus,
} from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { runPaidHooks } from '../orders.service.ts';
import { TEXTS } from '../orders.texts.ts';
import { type AttemptRecord, findAttemptByOutTradeNo, markAttemptPaid } from './attempts.repo.ts';
import { PAID_IN_TIME_TOLERANCE_MS } from './payment-rules.ts';
import { findPaymentByTransaction, insertPayment } from './payments.repo.ts';
import { insertRefund } from './refunds.repo.ts';
import { executeRefund, generateRefundNo, recordUndeliveredRefund } from './refunds.service.ts';
import { closeOpenAttempts } from './start.service.ts';

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
