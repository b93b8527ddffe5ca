import { formatDate, formatPaginationTotal } from '@kyfw/contracts';

/** '2026-03-02 10:00' in local time; '—' for null or an unreadable value. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  try {
    return formatDate(value, 'YYYY-MM-DD HH:mm');
  } catch {
    return '—';
  }
}

export const DEFAULT_PAGE_SIZE = 10;

/** antd Table pagination with the spec's total text (共 {0} 条, spec §9). */
export function pagination(
  total: number,
  page: number,
  onChange: (page: number) => void,
  pageSize: number = DEFAULT_PAGE_SIZE,
) {
  return {
    current: page,
    pageSize,
    total,
    onChange,
    showSizeChanger: false,
    hideOnSinglePage: false,
    showTotal: (value: number) => formatPaginationTotal(value),
  };
}
