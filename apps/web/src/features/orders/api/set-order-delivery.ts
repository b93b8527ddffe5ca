import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { Delivery } from '../types';
import { ordersKeys } from './keys';

/** POST /order/delivery: the courier delivery of the printed report goes to this address. */
export function setOrderDelivery(orderId: string, addressId: string) {
  return request<Delivery>('/order/delivery', { data: { orderId, addressId } });
}

/** Chooses the courier address of an order; the order's details and the lists refresh. */
export function useSetOrderDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, addressId }: { orderId: string; addressId: string }) =>
      unwrap(setOrderDelivery(orderId, addressId)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    },
  });
}
