import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { checkKeys } from './keys';

/** POST /freeCheck/deleteOrder: hides the check and removes its files (money records stay). */
export function deleteCheck(orderId: string) {
  return request<null>('/freeCheck/deleteOrder', { data: { orderId } });
}

/** Deletes a check (variables: its order id); the check list refreshes. */
export function useDeleteCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => unwrap(deleteCheck(orderId)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: checkKeys.lists });
    },
  });
}
