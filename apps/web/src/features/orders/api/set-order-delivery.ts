import { request } from '../../../lib/request';
import type { Delivery } from '../types';

/** POST /order/delivery: the courier delivery of the printed report goes to this address. */
export function setOrderDelivery(orderId: string, addressId: string) {
  return request<Delivery>('/order/delivery', { data: { orderId, addressId } });
}
