import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { addressKeys } from './keys';

/** POST /address/setDefault. */
export function setDefaultAddress(id: string) {
  return request<null>('/address/setDefault', { data: { id } });
}

/** Makes an address the default (variables: its id); pending until the address list has reloaded. */
export function useSetDefaultAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(setDefaultAddress(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: addressKeys.list }),
  });
}
