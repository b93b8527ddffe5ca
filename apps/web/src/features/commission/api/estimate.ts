import type { CommissionEstimate, CommissionService } from '@kyfw/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { commissionKeys } from './keys';

export interface EstimateInput {
  service: CommissionService;
  papers?: number;
  databases?: number;
  items?: number;
  scope?: string;
  urgency?: string;
}

/** POST /commission/estimate: the price the order will have, from the goods (silent: shown inline). */
export function getEstimate(input: EstimateInput) {
  return request<CommissionEstimate>('/commission/estimate', { data: input, silent: true });
}

export function useEstimate(input: EstimateInput, enabled: boolean) {
  return useQuery({
    queryKey: commissionKeys.estimate(input),
    queryFn: () => unwrap(getEstimate(input)),
    enabled,
    placeholderData: keepPreviousData,
  });
}
