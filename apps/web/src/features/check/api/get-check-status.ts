import { useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CheckPayStatus } from '../types';
import { checkKeys } from './keys';

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

/** Asks for a check's status again now (after the payment dialog closes or reports it paid). */
export function useRefreshCheckStatus() {
  const queryClient = useQueryClient();
  return (orderId: string) => queryClient.invalidateQueries({ queryKey: checkKeys.status(orderId) });
}
