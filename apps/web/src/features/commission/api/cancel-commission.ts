import type { Commission } from '@kyfw/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** POST /commission/cancel: 待报价 or 待支付 only (the order is cancelled too). */
export function cancelCommission(commissionId: string) {
  return request<Commission>('/commission/cancel', { data: { commissionId } });
}

export function useCancelCommission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commissionId: string) => unwrap(cancelCommission(commissionId)),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
