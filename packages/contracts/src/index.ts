export * from './envelope.ts';
export * from './errors.ts';
