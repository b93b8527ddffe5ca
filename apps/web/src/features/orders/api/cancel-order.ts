import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { ordersKeys } from './keys';

/** POST /order/cancel: a pending order can no longer be paid. */
export function cancelOrder(orderId: string) {
  return request<null>('/order/cancel', { data: { orderId } });
}

/** Cancels an order (variables: its id); the order lists and details refresh. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => unwrap(cancelOrder(orderId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
  });
}
