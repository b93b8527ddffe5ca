/**
 * The check feature's query keys, in one place. Queries use them; the write hooks beside them
 * invalidate through them. Components never spell a key.
 */
export const checkKeys = {
  all: ['check'] as const,
  /** Every user's goods (the free check's availability depends on the user). */
  goodsAll: ['check', 'goods'] as const,
  goods: (userId: string | null) => ['check', 'goods', userId] as const,
  status: (orderId: string) => ['check', 'status', orderId] as const,
  report: (orderId: string) => ['check', 'report', orderId] as const,
  /** Every page of the user's check list. */
  lists: ['check', 'list'] as const,
  list: (page: number, pageSize: number) => ['check', 'list', page, pageSize] as const,
  /** One row of the check list, for a check opened without its upload in this tab. */
  summary: (orderId: string) => ['check', 'summary', orderId] as const,
  /** The report editor's working copy, versions and limits (revise in the report). */
  revise: (orderId: string) => ['check', 'revise', orderId] as const,
};

/** The key of the paper upload, so that the page can lock the product cards while one is on its way. */
export const uploadMutationKey = ['check', 'upload'] as const;
