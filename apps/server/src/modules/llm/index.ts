// The llm module's entry: other modules and the composition root import it only from here
// (scripts/server-boundaries.ts).
export * from './ai-usage.module.ts';
export * from './llm.module.ts';
