/** Every query key of the commission feature, in one place. */
export const commissionKeys = {
  all: ['commission'] as const,
  estimate: (input: unknown) => ['commission', 'estimate', input] as const,
  one: (id: string) => ['commission', 'one', id] as const,
  byOrder: (orderIds: readonly string[]) => ['commission', 'by-order', ...orderIds] as const,
  console: ['commission', 'console'] as const,
  consoleList: (filter: unknown) => ['commission', 'console', 'list', filter] as const,
  consoleOne: (id: string) => ['commission', 'console', 'one', id] as const,
};
