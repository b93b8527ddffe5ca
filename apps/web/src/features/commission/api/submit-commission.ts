import type { Commission, CommissionForm } from '@kyfw/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { commissionKeys } from './keys';

/** POST /commission/submit: the form -> a commission (and its order when the goods price it). */
export function submitCommission(form: CommissionForm) {
  return request<Commission>('/commission/submit', { data: form });
}

export function useSubmitCommission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: CommissionForm) => unwrap(submitCommission(form)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: commissionKeys.all }),
  });
}
