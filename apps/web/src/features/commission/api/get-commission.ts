import type { CommissionDetail } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { commissionKeys } from './keys';

/** POST /commission/detail: one of the user's commissions with its timeline, files and reports. */
export function getCommission(commissionId: string) {
  return request<CommissionDetail>('/commission/detail', { data: { commissionId } });
}

export function useCommission(commissionId: string | null) {
  return useQuery({
    queryKey: commissionKeys.one(commissionId ?? ''),
    queryFn: () => unwrap(getCommission(commissionId as string)),
    enabled: Boolean(commissionId),
  });
}
