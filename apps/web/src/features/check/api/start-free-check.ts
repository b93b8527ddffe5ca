import { request } from '../../../lib/request';
import type { CheckState } from '../types';

/** POST /freeCheck/payFee: starts a free check with the account's free_check entitlement. */
export function startFreeCheck(orderId: string) {
  return request<CheckState>('/freeCheck/payFee', { data: { orderId } });
}
