import { request } from '../../../lib/request';
import type { Address, AddressInput } from '../types';

/** POST /address/save: adds (no id) or updates an address. */
export function saveAddress(input: AddressInput) {
  return request<Address>('/address/save', { data: input });
}
