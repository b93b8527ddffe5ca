import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { CityNode } from '../types';
import { addressKeys } from './keys';

/** GET /websiteUser/cityList: provinces -> cities -> districts (mainland China). */
export function getCityList() {
  return request<CityNode[]>('/websiteUser/cityList', { method: 'GET' });
}

export function useCityList(enabled = true) {
  return useQuery({
    queryKey: addressKeys.cityList,
    queryFn: async () => {
      const [error, data] = await getCityList();
      if (error) throw error;
      return data ?? [];
    },
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
