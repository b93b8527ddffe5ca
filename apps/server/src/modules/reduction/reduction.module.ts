import { defineModule } from '../types.ts';
import { reductionJobDefinitions, reductionPaidHandler } from './reduction.jobs.ts';
import { reductionRoutes } from './reduction.routes.ts';
import type { ReductionRuntime } from './reduction.service.ts';

export type ReductionModuleService = ReductionRuntime;

/**
 * 降重 and 降AIGC: /weightReduction/* under /kyfw/web/v1 (docs/api/reduction.md), the rewrite job
 * (reduction.jobs.ts) and the onPaid handlers of both service types. Uses the llm, orders and check
 * services; listed after them.
 */
export const reductionModule = defineModule({
  name: 'reduction',
  createService({ db, clock, services }): ReductionModuleService {
    return { db, orders: services.orders.api, llm: services.llm, check: services.check, now: clock };
  },
  hooks({ orders }) {
    orders.onPaid('reduction', reductionPaidHandler);
    orders.onPaid('aigc_reduction', reductionPaidHandler);
  },
  async routes(app, { reduction }) {
    await app.register(reductionRoutes, { rt: reduction });
  },
  jobs: reductionJobDefinitions,
});
