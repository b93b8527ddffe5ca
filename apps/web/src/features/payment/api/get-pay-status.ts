import { request } from '../../../lib/request';
import type { PayStatus } from '../types';

/** A service's `orderPayStatus` (or /order/payStatus). Polling errors are silent (spec §4/§8). */
export function getPayStatus<S extends PayStatus = PayStatus>(
  url: string,
  orderId: string,
  signal?: AbortSignal,
) {
  return request<S>(url, { data: { orderId }, silent: true, signal });
}
