import type { FastifyInstance } from 'fastify';
import type { AppModule, ModuleContext } from '../types.ts';
import './reduction.jobs.ts';
import { reductionRoutes } from './reduction.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database of the module's scope (was declared by the writing module, which no longer decorates it). */
    kyfwDb: ModuleContext['db'];
  }
}

/**
 * 降重 and 降AIGC: /weightReduction/* under /kyfw/web/v1 (docs/api/reduction.md), the rewrite job
 * (reduction.jobs.ts, registered in jobs/registry.ts) and the onPaid hooks of both service types.
 * Needs the llm, orders and check modules; register after them.
 */
export const reductionModule: AppModule = {
  name: 'reduction',
  async register(app: FastifyInstance, { db }: ModuleContext) {
    const now = app.hasDecorator('accountsAuth') ? () => app.accountsAuth.now() : () => new Date();
    if (!app.hasDecorator('kyfwDb')) app.decorate('kyfwDb', db);
    await app.register(reductionRoutes, { now });
  },
};
