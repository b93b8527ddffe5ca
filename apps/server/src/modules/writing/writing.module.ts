import type { FastifyInstance } from 'fastify';
import type { AppModule, ModuleContext } from '../types.ts';
import './writing.jobs.ts';
import { writingRoutes } from './writing.routes.ts';

/**
 * AI thesis writing: /aiWriting/* under /kyfw/web/v1 (docs/api/writing.md), the full-text job
 * (writing.jobs.ts, registered in jobs/registry.ts) and the onPaid('ai_writing') hook. Needs the
 * llm module (the LLM provider) and the orders module; register after both.
 */
export const writingModule: AppModule = {
  name: 'writing',
  async register(app: FastifyInstance, { db }: ModuleContext) {
    const now = app.hasDecorator('accountsAuth') ? () => app.accountsAuth.now() : () => new Date();
    await app.register(writingRoutes, { db, now });
  },
};
