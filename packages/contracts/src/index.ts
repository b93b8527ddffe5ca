export * from './constants.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './format.ts';
export * from './md5.ts';
export * from './units.ts';
export * from './validation.ts';
