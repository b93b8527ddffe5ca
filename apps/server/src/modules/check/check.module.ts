import type { FastifyInstance } from 'fastify';
import type { AppModule, ModuleContext } from '../types.ts';
import './check.account-data.ts';
import './check.jobs.ts';
import { checkRoutes } from './check.routes.ts';
import { createCheckRuntime, registerCheckRuntime, unregisterCheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';

export interface CheckModuleOptions {
  /** Worker threads for comparing and rendering (default 1). */
  threads?: number;
}

/**
 * The paper-check module: /freeCheck/* under /kyfw/web/v1 (docs/api/check.md), the check job
 * (check.jobs.ts, registered in jobs/registry.ts) and the onPaid('check') hook. Builds the module's
 * runtime — the comparison library, the worker threads, the file storage, the signing secret — and
 * registers it under the database handle for the job handler.
 */
export function createCheckModule(options: CheckModuleOptions = {}): AppModule {
  return {
    name: 'check',
    async register(app: FastifyInstance, { config, db }: ModuleContext) {
      const rt = await createCheckRuntime({
        db,
        config,
        logger: app.log,
        now: app.hasDecorator('accountsAuth') ? () => app.accountsAuth.now() : undefined,
        threads: options.threads,
      });
      registerCheckRuntime(rt);
      app.addHook('onClose', async () => {
        unregisterCheckRuntime(rt);
        await rt.close();
      });
      const documents = await rt.library.countDocuments();
      if (documents === 0) app.log.warn({ library: rt.library.describe() }, TEXTS.libraryEmptyHint);
      else app.log.info({ library: rt.library.describe(), documents }, 'comparison library opened');
      // Outside tests, load the worker threads (engine, index, fonts) in the background now.
      if (config.nodeEnv !== 'test') void rt.pool.warm(rt.indexLocation);
      await app.register(checkRoutes, { rt });
    },
  };
}

export const checkModule = createCheckModule();
