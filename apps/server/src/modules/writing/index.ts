// The writing module's entry: other modules and the composition root import it only from here
// (scripts/server-boundaries.ts).
export * from './writing.module.ts';
