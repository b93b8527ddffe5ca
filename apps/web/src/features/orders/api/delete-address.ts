import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { addressKeys } from './keys';

/** POST /address/delete. Deleting the default promotes the newest other address. */
export function deleteAddress(id: string) {
  return request<null>('/address/delete', { data: { id } });
}

/** Deletes an address (variables: its id); pending until the address list has reloaded. */
export function useDeleteAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(deleteAddress(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: addressKeys.list }),
  });
}
