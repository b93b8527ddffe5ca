import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';

/** POST /invoice/download: the issued PDF (attachment 电子发票-<no>.pdf). */
export function downloadInvoice(invoiceId: string) {
  return request('/invoice/download', { data: { invoiceId }, responseType: 'blob', timeout: 60_000 });
}

/** Downloads an invoice and saves it; `variables.invoiceId` tells which one is on its way. */
export function useDownloadInvoice() {
  return useMutation({
    mutationFn: async ({ invoiceId, fallbackName }: { invoiceId: string; fallbackName: string }) => {
      const file = await unwrap(downloadInvoice(invoiceId));
      saveFile(file.blob, file.filename ?? fallbackName);
    },
  });
}
