import { request } from '../../../lib/request';
import type { Invoice, InvoiceRequest } from '../types';

/** POST /invoice/create: one invoice for the chosen paid orders. */
export function createInvoice(body: InvoiceRequest) {
  return request<Invoice>('/invoice/create', { data: body });
}
