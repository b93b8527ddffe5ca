import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { Page, PaymentRecord } from '../types';
import { paymentRecordKeys } from './keys';

/** POST /payment/records: one page of the user's payments (newest first). */
export function listPaymentRecords(page: number, pageSize: number) {
  return request<Page<PaymentRecord>>('/payment/records', { data: { page, pageSize } });
}

export function usePaymentRecords(page: number, pageSize: number) {
  return useQuery({
    queryKey: paymentRecordKeys.list(page, pageSize),
    queryFn: async () => {
      const [error, data] = await listPaymentRecords(page, pageSize);
      if (error) throw error;
      return { list: data?.list ?? [], total: data?.total ?? 0 };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
