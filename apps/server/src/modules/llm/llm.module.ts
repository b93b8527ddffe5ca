import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import { selfFetch } from '../../lib/self-address.ts';
import { createLlmSetup, LLM_SANDBOX_PATH, type LlmSetup, llmDevRoutes } from '../../providers/llm/index.ts';
import type { AppModule, ModuleContext } from '../types.ts';

const setups = new WeakMap<Kysely<Database>, LlmSetup>();

/**
 * The LLM provider of the app built on this database (AI writing, 降重 and their jobs call it);
 * undefined before the llm module registered.
 */
export function findLlm(db: Kysely<Database>): LlmSetup | undefined {
  return setups.get(db);
}

export interface LlmModuleOptions {
  /** Transport to the endpoint (tests: createInjectFetch(() => app) to reach the mounted sandbox). */
  fetch?: typeof fetch;
}

/**
 * Builds the LLM provider once per app and, exactly in sandbox mode, mounts the OpenAI-compatible
 * sandbox at /__sandbox/llm/v1 and the fault controls at /__dev/llm/faults. Mounted at the root;
 * register it before the modules that use `findLlm`.
 */
export function createLlmModule(options: LlmModuleOptions = {}): AppModule {
  return {
    name: 'llm',
    prefix: '',
    async register(app: FastifyInstance, { config, db }: ModuleContext) {
      const setup = createLlmSetup(config.llm, {
        publicBaseUrl: config.publicBaseUrl,
        // Calls to our own sandbox reach this process over loopback whatever PUBLIC_BASE_URL says.
        fetch: options.fetch ?? selfFetch(config.publicBaseUrl, app.server),
        db,
        onRecordError: (error) => app.log.warn({ err: error }, 'llm usage not recorded'),
      });
      setups.set(db, setup);
      app.addHook('onClose', async () => {
        if (setups.get(db) === setup) setups.delete(db);
      });
      if (setup.sandbox) {
        await app.register(setup.sandbox.routes, { prefix: LLM_SANDBOX_PATH });
        await app.register(llmDevRoutes, { sandbox: setup.sandbox });
      }
    },
  };
}

export const llmModule = createLlmModule();
