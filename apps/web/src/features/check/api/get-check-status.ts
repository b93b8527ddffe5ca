import { request } from '../../../lib/request';
import type { CheckPayStatus } from '../types';

/** The check's pay endpoints for the payment dialog. */
export const CHECK_PAY_ENDPOINTS = {
  qrPayCodeUrl: '/freeCheck/freeCheckQrPayCode',
  payStatusUrl: '/freeCheck/orderPayStatus',
} as const;

/** POST /freeCheck/orderPayStatus: pay status plus the check's stage and progress. Silent (polling). */
export function getCheckStatus(orderId: string, signal?: AbortSignal) {
  return request<CheckPayStatus>(CHECK_PAY_ENDPOINTS.payStatusUrl, {
    data: { orderId },
    silent: true,
    signal,
  });
}
