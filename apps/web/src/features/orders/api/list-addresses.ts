import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { Address } from '../types';
import { addressKeys } from './keys';

/** POST /address/list: the user's receiving addresses, default first. */
export function listAddresses() {
  return request<Address[]>('/address/list');
}

export function useAddresses(enabled = true) {
  return useQuery({
    queryKey: addressKeys.list,
    queryFn: async () => {
      const [error, data] = await listAddresses();
      if (error) throw error;
      return data ?? [];
    },
    enabled,
    staleTime: 0,
  });
}
