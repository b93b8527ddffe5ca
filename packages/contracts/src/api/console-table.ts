import { z } from 'zod';

/**
 * What the console's tables (orders, invoices, commissions) share: a date range on the row's
 * creation day (China time, YYYY-MM-DD, both ends included) and the sort. The server reads the
 * same fields for the table and for its CSV export, so the export is what the table shows.
 */

const day = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^$|^\d{4}-\d{2}-\d{2}$/, { error: `${label}格式错误，应为 YYYY-MM-DD` })
    .optional()
    .transform((v) => (v ? v : undefined));

export const tableRangeFields = {
  from: day('开始日期'),
  to: day('结束日期'),
};

/** A table's sort, one of its own `values` (the first is the default). */
export const tableSort = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: '排序方式不正确' }).optional();

/** 开始日期 after 结束日期 is refused (1001) rather than answered with nothing. */
export const RANGE_ORDER_ERROR = '开始日期不能晚于结束日期';
export const rangeInOrder = (v: { from?: string | undefined; to?: string | undefined }) =>
  !v.from || !v.to || v.from <= v.to;

/** The search box of a console table (委托编号, phone, contact …). */
export const tableSearch = z
  .string()
  .trim()
  .max(50, { error: '搜索内容不能超过50个字' })
  .optional()
  .transform((v) => (v ? v : undefined));

/** The CSV files the console exports (UTF-8 with a BOM so that Excel reads the Chinese). */
export const CSV_EXPORT_MAX_ROWS = 10_000;
