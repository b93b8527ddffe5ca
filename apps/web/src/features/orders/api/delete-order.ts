import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { ordersKeys } from './keys';

/** POST /order/delete: hides a finished order (done, cancelled, expired, refunded) from the lists. */
export function deleteOrder(orderId: string) {
  return request<null>('/order/delete', { data: { orderId } });
}

/** Deletes an order (variables: its id); the order lists refresh. */
export function useDeleteOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => unwrap(deleteOrder(orderId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
  });
}
