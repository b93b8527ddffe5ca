import { request } from '../../../lib/request';

/** POST /address/delete. Deleting the default promotes the newest other address. */
export function deleteAddress(id: string) {
  return request<null>('/address/delete', { data: { id } });
}
