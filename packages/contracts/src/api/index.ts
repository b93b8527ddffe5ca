// The wire of every endpoint: request and response schemas per module (see endpoint.ts).
export * from './accounts.ts';
export * from './check.ts';
export * from './commission.ts';
export * from './commission-rules.ts';
export * from './console.ts';
export * from './console-catalog.ts';
export * from './endpoint.ts';
export * from './form-rules.ts';
export * from './goods-rules.ts';
export * from './home.ts';
export * from './library-admin.ts';
export * from './news.ts';
export * from './news-rules.ts';
export * from './operator.ts';
export * from './orders.ts';
export * from './reduction.ts';
export * from './writing.ts';
