/**
 * The orders feature's query keys, in one place. Queries use them; the write hooks beside them
 * invalidate through them. Components never spell a key.
 */
export const ordersKeys = {
  all: ['orders'] as const,
  list: (tab: string, page: number, pageSize: number) => ['orders', 'list', tab, page, pageSize] as const,
  detail: (orderId: string) => ['orders', 'detail', orderId] as const,
  /** What a service's tab extension loads for the rows on screen. */
  extra: (tab: string, orderIds: readonly string[]) => ['orders', 'extra', tab, orderIds] as const,
};

export const addressKeys = {
  all: ['addresses'] as const,
  list: ['addresses', 'list'] as const,
  cityList: ['addresses', 'cityList'] as const,
};

export const invoiceKeys = {
  all: ['invoices'] as const,
  invoiceable: ['invoices', 'orders'] as const,
  list: (page: number, pageSize: number) => ['invoices', 'list', page, pageSize] as const,
};

export const paymentRecordKeys = {
  all: ['payments', 'records'] as const,
  list: (page: number, pageSize: number) => ['payments', 'records', page, pageSize] as const,
};
