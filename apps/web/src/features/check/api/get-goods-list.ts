import { useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CheckGoods } from '../types';
import { checkKeys } from './keys';

/** POST /freeCheck/goodsList: the check products (free availability depends on the logged-in user). */
export function getGoodsList() {
  return request<CheckGoods[]>('/freeCheck/goodsList', { silent: true });
}

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

/** Asks for the goods again (the free check may have been used or returned meanwhile). */
export function useRefreshCheckGoods() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: checkKeys.goodsAll });
  };
}
