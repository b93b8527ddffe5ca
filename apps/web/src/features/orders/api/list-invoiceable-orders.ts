import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { InvoiceableOrder } from '../types';

/** POST /invoice/orders: the user's paid orders that are not on an invoice yet. */
export function listInvoiceableOrders() {
  return request<InvoiceableOrder[]>('/invoice/orders');
}

export const invoiceKeys = {
  all: ['invoices'] as const,
  invoiceable: ['invoices', 'orders'] as const,
  list: (page: number, pageSize: number) => ['invoices', 'list', page, pageSize] as const,
};

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
