import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { InvoiceableOrder } from '../types';
import { invoiceKeys } from './keys';

/** POST /invoice/orders: the user's paid orders that are not on an invoice yet. */
export function listInvoiceableOrders() {
  return request<InvoiceableOrder[]>('/invoice/orders');
}

export function useInvoiceableOrders() {
  return useQuery({
    queryKey: invoiceKeys.invoiceable,
    queryFn: async () => {
      const [error, data] = await listInvoiceableOrders();
      if (error) throw error;
      return data ?? [];
    },
    staleTime: 0,
  });
}
