import {
  type IncomingNotification,
  type NotificationAck,
  type PayChannel,
  PaymentNotificationError,
} from '../../../providers/payment/index.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { confirmPayment } from './confirm.service.ts';

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
