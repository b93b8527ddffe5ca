import type { SmsProvider } from '../../../providers/sms/index.ts';
import { findOrderById, findUserPhone } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { TEXTS } from '../orders.texts.ts';
import { findRefund } from './refunds.repo.ts';

/** How the refund notice goes out: the SMS provider and its template (none: not sent). */
export type RefundSms = { provider: SmsProvider; templateCode?: string } | null;

/**
 * Tells the user by SMS that an operator refunded their order (the order number is the template's
 * one variable), as the other notices do. Queued in the transaction that records the refund, run
 * once (maxAttempts 1: a duplicate SMS is worse than a missing one; the order shows 已退款 either
 * way). A refund that failed at the platform is not announced: an operator takes it over.
 */
export async function sendRefundNotice(
  rt: OrdersRuntime,
  sms: RefundSms,
  refundId: string,
): Promise<'sent' | 'skipped'> {
  const refund = await findRefund(rt.db, refundId);
  if (!refund || refund.status === 'failed' || !sms) return 'skipped';
  const order = await findOrderById(rt.db, refund.orderId);
  const phone = order ? await findUserPhone(rt.db, order.userId) : null;
  if (!order || !phone) return 'skipped';
  try {
    await sms.provider.send({
      phone,
      purpose: TEXTS.refundSmsPurpose,
      params: { code: order.orderNo },
      ...(sms.templateCode ? { templateCode: sms.templateCode } : {}),
    });
    return 'sent';
  } catch (error) {
    rt.logger.warn({ err: error, refundNo: refund.refundNo }, 'refund notice SMS failed; the order shows it');
    return 'skipped';
  }
}
