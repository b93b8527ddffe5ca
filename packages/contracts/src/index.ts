// Type-only: the check report's wire types add nothing to a bundle.

export * from './aigc-figure.ts';
export type * from './aigc-report.ts';
export * from './api/index.ts';
export type * from './check-report.ts';
export * from './constants.ts';
export * from './credit-code.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './format.ts';
export * from './live-figures.ts';
export * from './md5.ts';
export * from './routes.ts';
export * from './units.ts';
export * from './validation.ts';
