import type { OrderStatus } from '@kyfw/db';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { isPaidStatus } from './order-state.ts';
import type { OrderRecord } from './orders.repo.ts';
import {
  ORDER_STATUS_TEXTS,
  PAY_CHANNEL_TEXTS,
  PAYMENT_REFUND_FAILED_TEXTS,
  PAYMENT_REFUND_PENDING_TEXTS,
  PAYMENT_STATUS_TEXTS,
  SERVICE_TYPE_TEXTS,
  TEXTS,
} from './orders.texts.ts';
import type { PaymentRecord } from './payments/payments.repo.ts';

/** Amounts on the wire: integer fen and the 2-decimal yuan string (never a float). */
export function money(fen: number): { amountFen: number; amount: string } {
  return { amountFen: fen, amount: formatFenAsYuan(fen) };
}

/**
 * The status the user reads. An order whose service could not be delivered says what happened and
 * where its money is: '检测失败，正在自动退款' while the refund is under way (the order is still
 * paid), '检测失败，已自动退款' once the platform confirmed it (refunded). When the platform refused
 * the refund (its payment flagged for an operator): '检测失败，退款未能自动完成，客服将与您联系处理',
 * and '检测失败，已退款' once an operator refunded it.
 */
function statusTextOf(order: OrderRecord): string {
  const what = order.undeliveredText;
  if (what) {
    const refused = order.autoRefundFailedAt !== null;
    if (order.status === 'refunded')
      return refused ? TEXTS.undeliveredRefundedByHand(what) : TEXTS.undeliveredRefunded(what);
    if (isPaidStatus(order.status))
      return refused ? TEXTS.undeliveredRefundFailed(what) : TEXTS.undeliveredRefunding(what);
  }
  if (order.status === 'pending_payment' && order.offlinePending) return TEXTS.offlinePendingStatus;
  return ORDER_STATUS_TEXTS[order.status];
}

/**
 * A payment's status as the user reads it. A late or duplicate payment is refunded automatically:
 * it says 已自动退款 only once the money went back, 正在自动退款 before, and that customer service
 * will be in touch when the platform refused the refund (the payment is flagged for an operator).
 */
export function paymentStatusTextOf(
  payment: Pick<PaymentRecord, 'status' | 'amountFen' | 'refundedFen' | 'flagged'>,
): string {
  const { status } = payment;
  if (status !== 'late' && status !== 'duplicate') return PAYMENT_STATUS_TEXTS[status];
  if (payment.refundedFen >= payment.amountFen) return PAYMENT_STATUS_TEXTS[status];
  return payment.flagged ? PAYMENT_REFUND_FAILED_TEXTS[status] : PAYMENT_REFUND_PENDING_TEXTS[status];
}

/** The parts of an order sold with add-ons (meta.parts, orders.service createOrder); [] otherwise. */
export function partsOf(
  order: Pick<OrderRecord, 'meta'>,
): { goodsId: string; goodsName: string; amountFen: number; amount: string }[] {
  const parts = (order.meta as { parts?: unknown } | null)?.parts;
  if (!Array.isArray(parts)) return [];
  return parts.map((p: { goodsId: string; goodsName: string; amountFen: number }) => ({
    goodsId: p.goodsId,
    goodsName: p.goodsName,
    ...money(p.amountFen),
  }));
}

/** An order as the account pages and services see it (docs/api/orders.md). */
export function toOrderView(order: OrderRecord, now: Date) {
  const pending = order.status === 'pending_payment';
  // A transfer proof waits for an operator: nothing to pay or cancel until it is reviewed (3012).
  const awaitingReview = pending && order.offlinePending;
  return {
    orderId: order.id,
    orderNo: order.orderNo,
    serviceType: order.serviceType,
    serviceTypeText: SERVICE_TYPE_TEXTS[order.serviceType],
    goodsId: order.goodsId,
    goodsName: order.goodsName,
    quantity: order.quantity,
    unit: order.unit,
    unitSize: order.unitSize,
    unitPriceFen: order.unitPriceFen,
    unitPrice: formatFenAsYuan(order.unitPriceFen),
    ...money(order.amountFen),
    refundedFen: order.refundedFen,
    refundedAmount: formatFenAsYuan(order.refundedFen),
    status: order.status,
    statusText: statusTextOf(order),
    /** The service could not be delivered: the payment is (being) refunded in full automatically. */
    autoRefund: order.undeliveredAt !== null,
    /** That automatic refund was refused by the payment platform: an operator takes over. */
    autoRefundFailed: order.autoRefundFailedAt !== null,
    /** 1 when the order is paid (paid, processing or done), as the spec's orderPayStatus. */
    payStatus: payStatusOf(order.status),
    payChannel: order.payChannel,
    payChannelText: order.payChannel ? PAY_CHANNEL_TEXTS[order.payChannel] : null,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    expireAt: order.expireAt.toISOString(),
    serviceRef: order.serviceRef,
    meta: order.meta,
    /** An order with add-ons (a check with AIGC detection): each part's name and amount. */
    parts: partsOf(order),
    /** A transfer proof waits for an operator (statusText 待确认); `offlinePendingText` says what next. */
    offlinePending: awaitingReview,
    offlinePendingText: awaitingReview ? TEXTS.offlinePendingNext : null,
    canPay: pending && !awaitingReview && order.expireAt.getTime() > now.getTime(),
    canCancel: pending && !awaitingReview,
    canDelete: ['done', 'cancelled', 'expired', 'refunded'].includes(order.status),
  };
}

export type OrderView = ReturnType<typeof toOrderView>;

/** The spec's orderPayStatus: 1 when the order is paid (paid, processing or done), else 0. */
export function payStatusOf(status: OrderStatus): 0 | 1 {
  return isPaidStatus(status) ? 1 : 0;
}
