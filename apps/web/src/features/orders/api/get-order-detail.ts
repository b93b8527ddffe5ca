import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { OrderDetail } from '../types';
import { ordersKeys } from './keys';

/** POST /order/detail: the order with its status history, payments, refunds and delivery. */
export function getOrderDetail(orderId: string) {
  return request<OrderDetail>('/order/detail', { data: { orderId } });
}

export function useOrderDetail(orderId: string | null) {
  return useQuery({
    queryKey: ordersKeys.detail(orderId ?? ''),
    queryFn: () => unwrap(getOrderDetail(orderId as string)),
    enabled: Boolean(orderId),
    staleTime: 0,
  });
}
