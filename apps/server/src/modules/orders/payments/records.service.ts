import type { Database, Kysely } from '@kyfw/db';
import { formatFenAsYuan } from '../../../providers/payment/index.ts';
import { PAY_CHANNEL_TEXTS, REFUND_STATUS_TEXTS } from '../orders.texts.ts';
import { money, paymentStatusTextOf } from '../orders.view.ts';
import { listUserPayments } from './payments.repo.ts';
import type { RefundRecord } from './refunds.repo.ts';

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
