import type { Commission, Page } from '@kyfw/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { commissionKeys } from './keys';

/** POST /commission/list: the user's commissions, newest first. */
export function listCommissions(page: number, pageSize: number) {
  return request<Page<Commission>>('/commission/list', { data: { page, pageSize } });
}

export function useCommissions(page: number, pageSize: number) {
  return useQuery({
    queryKey: [...commissionKeys.all, 'list', page, pageSize],
    queryFn: () => unwrap(listCommissions(page, pageSize)),
    placeholderData: keepPreviousData,
  });
}
