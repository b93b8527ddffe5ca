import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CheckListItem } from '../types';
import { checkKeys } from './get-goods-list';

/** POST /freeCheck/orderList: the user's checks (free and paid), newest first. */
export function listChecks(page: number, pageSize: number) {
  return request<{ total: number; list: CheckListItem[] }>('/freeCheck/orderList', {
    data: { page, pageSize },
  });
}

/** The list; refreshed every 3 s while one of the rows is still being checked. */
export function useCheckList(page: number, pageSize: number, pollIntervalMs = 3000) {
  return useQuery({
    queryKey: checkKeys.list(page, pageSize),
    queryFn: async () => {
      const [error, data] = await listChecks(page, pageSize);
      if (error) throw error;
      return { total: data?.total ?? 0, list: data?.list ?? [] };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.list.some((c) => c.checkStatus === 'queued' || c.checkStatus === 'running')
        ? pollIntervalMs
        : false,
  });
}
