import { request } from '../../../lib/request';

/** POST /order/cancel: a pending order can no longer be paid. */
export function cancelOrder(orderId: string) {
  return request<null>('/order/cancel', { data: { orderId } });
}
