import { defineModule } from '../types.ts';
import { registerWritingAccountHooks } from './writing.account-data.ts';
import { writingJobDefinitions, writingPaidHandler, writingRefundedHandler } from './writing.jobs.ts';
import { writingRoutes } from './writing.routes.ts';
import type { WritingRuntime } from './writing.service.ts';

export type WritingModuleService = WritingRuntime;

/**
 * AI thesis writing: /aiWriting/* under /kyfw/web/v1 (docs/api/writing.md), the full-text job
 * (writing.jobs.ts) and the onPaid('ai_writing') handler. Uses the llm, orders and check
 * (comparison library) services; listed after them.
 */
export const writingModule = defineModule({
  name: 'writing',
  createService({ db, clock, services }): WritingModuleService {
    return {
      db,
      orders: services.orders.api,
      llm: services.llm,
      library: services.check.library,
      now: clock,
    };
  },
  hooks({ orders, accounts, writing }) {
    orders.onPaid('ai_writing', writingPaidHandler);
    orders.onRefunded('ai_writing', writingRefundedHandler);
    // "Export my data" lists the drafts; deleting the account erases them (writing.account-data.ts).
    registerWritingAccountHooks(accounts.hooks, writing);
  },
  async routes(app, { writing, accounts, llm }) {
    await app.register(writingRoutes, { rt: writing, uploads: accounts.uploads, quota: llm.quota });
  },
  jobs: writingJobDefinitions,
});
