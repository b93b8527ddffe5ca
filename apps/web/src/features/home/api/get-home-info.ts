import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { HomeInfo } from '../types';

/** GET /home/homeInfo (spec §7): operator info and friend links for the footer, what registration gives. */
export function getHomeInfo() {
  return request<HomeInfo>('/home/homeInfo', { method: 'GET', silent: true });
}

export const homeInfoQueryOptions = queryOptions({
  queryKey: ['home', 'homeInfo'],
  queryFn: async (): Promise<HomeInfo> => {
    const [error, data] = await getHomeInfo();
    if (error) throw error;
    return {
      webInfo: data?.webInfo ?? null,
      friendLinkList: data?.friendLinkList ?? [],
      benefits: data?.benefits ?? [],
    };
  },
  staleTime: 10 * 60_000,
});

export function useHomeInfo() {
  return useQuery(homeInfoQueryOptions);
}
