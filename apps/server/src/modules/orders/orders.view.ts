import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { isPaidStatus } from './order-state.ts';
import type { OrderRecord } from './orders.repo.ts';
import { ORDER_STATUS_TEXTS, PAY_CHANNEL_TEXTS, SERVICE_TYPE_TEXTS, TEXTS } from './orders.texts.ts';

/** Amounts on the wire: integer fen and the 2-decimal yuan string (never a float). */
export function money(fen: number): { amountFen: number; amount: string } {
  return { amountFen: fen, amount: formatFenAsYuan(fen) };
}

/**
 * The status the user reads. An order whose service could not be delivered says what happened and
 * where its money is: '检测失败，正在自动退款' while the refund is under way (the order is still
 * paid), '检测失败，已自动退款' once the platform confirmed it (refunded).
 */
function statusTextOf(order: OrderRecord): string {
  if (order.undeliveredText) {
    if (order.status === 'refunded') return TEXTS.undeliveredRefunded(order.undeliveredText);
    if (isPaidStatus(order.status)) return TEXTS.undeliveredRefunding(order.undeliveredText);
  }
  return ORDER_STATUS_TEXTS[order.status];
}

/** An order as the account pages and services see it (docs/api/orders.md). */
export function toOrderView(order: OrderRecord, now: Date) {
  const pending = order.status === 'pending_payment';
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
    /** 1 when the order is paid (paid, processing or done), as the spec's orderPayStatus. */
    payStatus: isPaidStatus(order.status) ? 1 : 0,
    payChannel: order.payChannel,
    payChannelText: order.payChannel ? PAY_CHANNEL_TEXTS[order.payChannel] : null,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    expireAt: order.expireAt.toISOString(),
    serviceRef: order.serviceRef,
    meta: order.meta,
    canPay: pending && order.expireAt.getTime() > now.getTime(),
    canCancel: pending,
    canDelete: ['done', 'cancelled', 'expired', 'refunded'].includes(order.status),
  };
}

export type OrderView = ReturnType<typeof toOrderView>;
