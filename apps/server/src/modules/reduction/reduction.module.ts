import { defineModule } from '../types.ts';
import { registerReductionAccountHooks } from './reduction.account-data.ts';
import { reductionJobDefinitions, reductionPaidHandler, reductionRefundedHandler } from './reduction.jobs.ts';
import { reductionRoutes } from './reduction.routes.ts';
import type { ReductionRuntime } from './reduction.service.ts';

export type ReductionModuleService = ReductionRuntime;

/**
 * 降重 and 降AIGC: /weightReduction/* under /kyfw/web/v1 (docs/api/reduction.md), the rewrite job
 * (reduction.jobs.ts), the onPaid handlers of both service types and the account deletion/export
 * hooks (reduction.account-data.ts). Uses the llm, orders and check
 * services; listed after them.
 */
export const reductionModule = defineModule({
  name: 'reduction',
  createService({ db, clock, services }): ReductionModuleService {
    return { db, orders: services.orders.api, llm: services.llm, check: services.check, now: clock };
  },
  hooks({ orders, accounts, reduction }) {
    orders.onPaid('reduction', reductionPaidHandler);
    orders.onPaid('aigc_reduction', reductionPaidHandler);
    orders.onRefunded('reduction', reductionRefundedHandler);
    orders.onRefunded('aigc_reduction', reductionRefundedHandler);
    registerReductionAccountHooks(accounts.hooks, reduction);
  },
  async routes(app, { reduction, accounts }) {
    await app.register(reductionRoutes, { rt: reduction, uploads: accounts.uploads });
  },
  jobs: reductionJobDefinitions,
});
