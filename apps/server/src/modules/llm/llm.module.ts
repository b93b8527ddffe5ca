import { selfFetch } from '../../lib/self-address.ts';
import { createLlmSetup, LLM_SANDBOX_PATH, type LlmSetup, llmDevRoutes } from '../../providers/llm/index.ts';
import { defineModule } from '../types.ts';
import { type AiQuota, createAiQuota } from './ai-quota.service.ts';

export type { AiQuota };

/**
 * The LLM provider of this process (AI writing, 降重 and their jobs call it): `services.llm`. Its
 * provider holds each paid order to LLM_ORDER_MAX_CALLS / LLM_ORDER_MAX_TOKENS; `quota` runs the
 * free calls under their limits and the daily token budget (decision 0028).
 */
export type LlmModuleService = LlmSetup & { quota: AiQuota };

/**
 * Builds the LLM provider once per process and, exactly in sandbox mode (API process), mounts the
 * OpenAI-compatible sandbox at /__sandbox/llm/v1 and the fault controls at /__dev/llm/faults.
 * Mounted at the root; list it before the modules that use `services.llm`.
 */
export const llmModule = defineModule({
  name: 'llm',
  prefix: '',
  createService({ config, db, logger, clock, providers, httpServer }): LlmModuleService {
    // Calls to our own sandbox reach this process over loopback whatever PUBLIC_BASE_URL says.
    const ownFetch: typeof fetch = (input, init) => {
      const server = httpServer();
      return server ? selfFetch(config.publicBaseUrl, server)(input, init) : fetch(input, init);
    };
    const setup = createLlmSetup(config.llm, {
      publicBaseUrl: config.publicBaseUrl,
      fetch: providers.llmFetch ?? ownFetch,
      db,
      now: clock,
      onRecordError: (error) => logger.warn({ err: error }, 'llm usage not recorded'),
    });
    const quota = createAiQuota({ db, now: clock, config: config.aiQuota });
    return { ...setup, provider: quota.bound(setup.provider), quota };
  },
  async routes(app, { llm }) {
    if (llm.sandbox) {
      await app.register(llm.sandbox.routes, { prefix: LLM_SANDBOX_PATH });
      await app.register(llmDevRoutes, { sandbox: llm.sandbox });
    }
  },
});
