// The library module's entry: other modules and the composition root import it only from here
// (scripts/server-boundaries.ts).
export * from './library.module.ts';
