/** Every query key of the commission feature, in one place. */
export const commissionKeys = {
  all: ['commission'] as const,
  estimate: (input: unknown) => ['commission', 'estimate', input] as const,
  services: ['commission', 'services'] as const,
  one: (id: string) => ['commission', 'one', id] as const,
};
