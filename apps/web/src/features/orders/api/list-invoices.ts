import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { Invoice, Page } from '../types';
import { invoiceKeys } from './keys';

/** POST /invoice/list: one page of the user's invoices. */
export function listInvoices(page: number, pageSize: number) {
  return request<Page<Invoice>>('/invoice/list', { data: { page, pageSize } });
}

export function useInvoices(page: number, pageSize: number) {
  return useQuery({
    queryKey: invoiceKeys.list(page, pageSize),
    queryFn: async () => {
      const [error, data] = await listInvoices(page, pageSize);
      if (error) throw error;
      return { list: data?.list ?? [], total: data?.total ?? 0 };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
