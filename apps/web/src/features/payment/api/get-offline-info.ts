import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { OfflineInfo } from '../types';

/** POST /payment/offline/info: the bank account for transfers, and the proof limits. */
export function getOfflineInfo() {
  return request<OfflineInfo>('/payment/offline/info', { silent: true });
}

export const offlineInfoQueryOptions = queryOptions({
  queryKey: ['payment', 'offlineInfo'],
  queryFn: () => unwrap(getOfflineInfo()),
  staleTime: 10 * 60_000,
});

export function useOfflineInfo(enabled: boolean) {
  return useQuery({ ...offlineInfoQueryOptions, enabled });
}
