import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { Address, AddressInput } from '../types';
import { addressKeys } from './keys';

/** POST /address/save: adds (no id) or updates an address. */
export function saveAddress(input: AddressInput) {
  return request<Address>('/address/save', { data: input });
}

/** Adds or updates an address; the address list refreshes. */
export function useSaveAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddressInput) => unwrap(saveAddress(input)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: addressKeys.list });
    },
  });
}
