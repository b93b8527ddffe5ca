import { formatPaginationTotal } from '@kyfw/contracts';
import type { TablePaginationConfig } from 'antd';

/** antd Table pagination with the spec's total text (共 {0} 条, spec §9) and a fixed page size. */
export function tablePagination(
  total: number,
  page: number,
  onChange: (page: number) => void,
  pageSize: number,
): TablePaginationConfig {
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
