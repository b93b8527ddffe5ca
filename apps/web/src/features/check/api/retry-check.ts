import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { CheckState } from '../types';
import { checkKeys } from './keys';

/** POST /freeCheck/retryCheck: runs a failed check again (a free one uses the returned free check). */
export function retryCheck(orderId: string) {
  return request<CheckState>('/freeCheck/retryCheck', { data: { orderId } });
}

/** Runs a failed check again (variables: its order id); pending until its status has reloaded. */
export function useRetryCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => unwrap(retryCheck(orderId)),
    onSuccess: (_state, orderId) => {
      void queryClient.invalidateQueries({ queryKey: checkKeys.lists });
      return queryClient.invalidateQueries({ queryKey: checkKeys.status(orderId) });
    },
  });
}
