import { request } from '../../../lib/request';

/** POST /freeCheck/deleteOrder: hides the check and removes its files (money records stay). */
export function deleteCheck(orderId: string) {
  return request<null>('/freeCheck/deleteOrder', { data: { orderId } });
}
