// The orders module's entry: other modules import it only from here (scripts/server-boundaries.ts);
// the operator console's second entry, orders.operator.ts, is re-exported too.
export * from './orders.api.ts';
export * from './orders.module.ts';
export * from './orders.operator.ts';
