/** The writing feature's query keys. */
export const writingKeys = {
  all: ['writing'] as const,
  one: (writingId: string) => ['writing', 'one', writingId] as const,
  list: ['writing', 'list'] as const,
  freeOutlines: ['writing', 'free-outlines'] as const,
};

/** The pay endpoints of AI writing for the payment dialog (orders module). */
export const WRITING_PAY_ENDPOINTS = {
  qrPayCodeUrl: '/aiWriting/freeCheckQrPayCode',
  payStatusUrl: '/aiWriting/orderPayStatus',
} as const;
