import { API_PREFIX } from '@kyfw/contracts';
import { configureExtractionPool } from '@kyfw/simcheck/extract';
import { defineModule } from '../types.ts';
import { registerCheckAccountHooks } from './check.account-data.ts';
import { checkJobDefinitions, checkPaidHandler, checkRefundedHandler, checkSchedules } from './check.jobs.ts';
import { checkRoutes } from './check.routes.ts';
import { type CheckRuntime, createCheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';

/** The check module's service: its runtime (library, worker threads, storage, signing key). */
export type CheckModuleService = CheckRuntime;

/**
 * The paper-check module: /freeCheck/* under /kyfw/web/v1 (docs/api/check.md), the check and
 * purge jobs (check.jobs.ts), the onPaid('check') handler and the account deletion/export hooks.
 */
export const checkModule = defineModule({
  name: 'check',
  prefix: API_PREFIX,
  async createService({ config, db, logger, clock, services }): Promise<CheckModuleService> {
    // One pool of extraction workers per process, whatever the number of uploads (decision 0029).
    configureExtractionPool({ workers: config.check.extractWorkers, queue: config.check.extractQueue });
    const rt = await createCheckRuntime({ db, config, logger, now: clock, orders: services.orders.api });
    const documents = await rt.library.countDocuments();
    if (documents === 0) logger.warn({ library: rt.library.describe() }, TEXTS.libraryEmptyHint);
    else logger.info({ library: rt.library.describe(), documents }, 'comparison library opened');
    // Outside tests, load the worker threads (engine, index, fonts) in the background now.
    if (config.nodeEnv !== 'test') void rt.pool.warm(rt.indexLocation);
    return rt;
  },
  hooks({ orders, accounts, check }) {
    orders.onPaid('check', checkPaidHandler);
    orders.onRefunded('check', checkRefundedHandler);
    registerCheckAccountHooks(accounts.hooks, check);
  },
  async routes(app, { check, accounts }) {
    await app.register(checkRoutes, { rt: check, uploads: accounts.uploads });
  },
  jobs: checkJobDefinitions,
  schedules: checkSchedules,
});
