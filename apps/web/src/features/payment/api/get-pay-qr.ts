import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { PayQr, PayType } from '../types';

/** A service's `freeCheckQrPayCode` (or /order/pay): the QR code of one channel for an order. */
export function getPayQr(url: string, orderId: string, payType: PayType) {
  // Silent: the dialog shows the reason in place of the QR code.
  return request<PayQr>(url, { data: { orderId, payType }, silent: true });
}

export interface PayQrRequest {
  url: string;
  orderId: string;
  payType: PayType;
}

/**
 * Asks for a channel's code (a write: the server opens a payment at the platform and closes the
 * other channel's). `variables` tell which order and channel the state belongs to.
 */
export function useRequestPayQr() {
  return useMutation({
    mutationFn: ({ url, orderId, payType }: PayQrRequest) => unwrap(getPayQr(url, orderId, payType)),
  });
}
