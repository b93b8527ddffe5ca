import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CheckGoods } from '../types';

/** POST /freeCheck/goodsList: the check products (free availability depends on the logged-in user). */
export function getGoodsList() {
  return request<CheckGoods[]>('/freeCheck/goodsList', { silent: true });
}

export const checkKeys = {
  all: ['check'] as const,
  goods: (userId: string | null) => ['check', 'goods', userId] as const,
  status: (orderId: string) => ['check', 'status', orderId] as const,
  report: (orderId: string) => ['check', 'report', orderId] as const,
  list: (page: number, pageSize: number) => ['check', 'list', page, pageSize] as const,
};

/** The goods, refetched when the user changes (logging in may unlock the free check). */
export function useCheckGoods(userId: string | null) {
  return useQuery({
    queryKey: checkKeys.goods(userId),
    queryFn: async () => {
      const [error, data] = await getGoodsList();
      if (error) throw error;
      return data ?? [];
    },
    staleTime: 30_000,
  });
}
