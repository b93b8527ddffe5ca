import { request } from '../../../lib/request';
import type { PayQr, PayType } from '../types';

/** A service's `freeCheckQrPayCode` (or /order/pay): the QR code of one channel for an order. */
export function getPayQr(url: string, orderId: string, payType: PayType) {
  // Silent: the dialog shows the reason in place of the QR code.
  return request<PayQr>(url, { data: { orderId, payType }, silent: true });
}
