// The reduction module's entry: other modules and the composition root import it only from here
// (scripts/server-boundaries.ts).
export * from './reduction.module.ts';
