import { request } from '../../../lib/request';
import type { CheckState } from '../types';

/** POST /freeCheck/retryCheck: runs a failed check again (a free one uses the returned free check). */
export function retryCheck(orderId: string) {
  return request<CheckState>('/freeCheck/retryCheck', { data: { orderId } });
}
