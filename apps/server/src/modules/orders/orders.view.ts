import { formatFenAsYuan } from '../../providers/payment/index.ts';
import { isPaidStatus } from './order-state.ts';
import type { OrderRecord } from './orders.repo.ts';
import { ORDER_STATUS_TEXTS, PAY_CHANNEL_TEXTS, SERVICE_TYPE_TEXTS } from './orders.texts.ts';

/** Amounts on the wire: integer fen and the 2-decimal yuan string (never a float). */
export function money(fen: number): { amountFen: number; amount: string } {
  return { amountFen: fen, amount: formatFenAsYuan(fen) };
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
    statusText: ORDER_STATUS_TEXTS[order.status],
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
