import { request } from '../../../lib/request';

/** POST /invoice/download: the issued PDF (attachment 电子发票-<no>.pdf). */
export function downloadInvoice(invoiceId: string) {
  return request('/invoice/download', { data: { invoiceId }, responseType: 'blob', timeout: 60_000 });
}
