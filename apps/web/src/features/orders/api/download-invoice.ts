import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';

/**
 * POST /invoice/download: the issued PDF (attachment 电子发票-<no>.pdf), or with `red` the red
 * invoice of its 红冲 (红字发票-<no>.pdf).
 */
export function downloadInvoice(invoiceId: string, red = false) {
  return request('/invoice/download', {
    data: red ? { invoiceId, red } : { invoiceId },
    responseType: 'blob',
    timeout: 60_000,
  });
}

/** Downloads an invoice (or its red invoice) and saves it; `variables` tell which one is on its way. */
export function useDownloadInvoice() {
  return useMutation({
    mutationFn: async ({
      invoiceId,
      fallbackName,
      red = false,
    }: {
      invoiceId: string;
      fallbackName: string;
      red?: boolean;
    }) => {
      const file = await unwrap(downloadInvoice(invoiceId, red));
      saveFile(file.blob, file.filename ?? fallbackName);
    },
  });
}
