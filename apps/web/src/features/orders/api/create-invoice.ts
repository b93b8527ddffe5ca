import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { Invoice, InvoiceRequest } from '../types';
import { invoiceKeys, ordersKeys } from './keys';

/** POST /invoice/create: one invoice for the chosen paid orders. */
export function createInvoice(body: InvoiceRequest) {
  return request<Invoice>('/invoice/create', { data: body });
}

/** Requests an invoice; the invoice lists and the orders (which show their invoice) refresh. */
export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvoiceRequest) => unwrap(createInvoice(body)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
        queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
      ]),
  });
}
