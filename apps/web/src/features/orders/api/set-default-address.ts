import { request } from '../../../lib/request';

/** POST /address/setDefault. */
export function setDefaultAddress(id: string) {
  return request<null>('/address/setDefault', { data: { id } });
}
