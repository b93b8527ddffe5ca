import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CheckListItem } from '../types';
import { checkKeys } from './keys';

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

/** One check's row from the first page of the list (a check opened without its upload in this tab). */
export function useCheckListRow(orderId: string, enabled: boolean) {
  return useQuery({
    queryKey: checkKeys.summary(orderId),
    queryFn: async (): Promise<CheckListItem | null> => {
      const [error, data] = await listChecks(1, 50);
      if (error) throw error;
      return data?.list.find((c) => c.orderId === orderId) ?? null;
    },
    enabled,
    staleTime: 60_000,
  });
}

/** Reloads every page of the check list (after a payment dialog closes, or a row's order changed). */
export function useRefreshCheckList() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: checkKeys.lists });
  };
}
