import type { TablePaginationConfig } from 'antd';
import { tablePagination } from '../../../lib/pagination';

/** Rows per page of the console's lists (the page size their filters ask the server for). */
export const CONSOLE_PAGE_SIZE = 20;

/**
 * The pagination of a console table paged by the server: the filter's page, the answer's total;
 * turning the page asks again with the same filter.
 */
export function serverPagination<F extends { page?: unknown }>(
  filter: F,
  setFilter: (next: F) => void,
  total: number | undefined,
): TablePaginationConfig {
  return tablePagination(
    total ?? 0,
    Number(filter.page ?? 1),
    (page) => setFilter({ ...filter, page }),
    CONSOLE_PAGE_SIZE,
  );
}
