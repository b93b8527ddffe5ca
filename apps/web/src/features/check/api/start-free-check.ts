import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { CheckState } from '../types';
import { checkKeys } from './keys';

/** POST /freeCheck/payFee: starts a free check with the account's free_check entitlement. */
export function startFreeCheck(orderId: string) {
  return request<CheckState>('/freeCheck/payFee', { data: { orderId } });
}

/**
 * Starts a free check (variables: its order id). Pending until the check's status has reloaded;
 * the check list and the goods (the free check is used now) refresh too.
 */
export function useStartFreeCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => unwrap(startFreeCheck(orderId)),
    onSuccess: (_state, orderId) => {
      void queryClient.invalidateQueries({ queryKey: checkKeys.lists });
      void queryClient.invalidateQueries({ queryKey: checkKeys.goodsAll });
      return queryClient.invalidateQueries({ queryKey: checkKeys.status(orderId) });
    },
  });
}
