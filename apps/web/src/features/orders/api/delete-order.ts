import { request } from '../../../lib/request';

/** POST /order/delete: hides a finished order (done, cancelled, expired, refunded) from the lists. */
export function deleteOrder(orderId: string) {
  return request<null>('/order/delete', { data: { orderId } });
}
