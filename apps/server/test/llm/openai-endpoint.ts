import { registeredSandboxTemplates, SANDBOX_API_KEY } from '../../src/providers/llm/index.ts';
import type { BuildOptions } from '../orders/orders-helper.ts';
import { startLlmSandbox } from '../providers/llm/sandbox-harness.ts';

/**
 * An OpenAI-compatible endpoint outside the app, as an operator configures one: the LLM sandbox
 * listening on its own loopback port (real HTTP), with every feature's templates and its content
 * faults, and the environment that points the app at it — `LLM_PROVIDER=openai`, `LLM_BASE_URL`,
 * `LLM_MODEL`, `LLM_API_KEY`, the default `LLM_RESPONSE_FORMAT` (json_object). The app then runs
 * the real adapter path: provider kind `openai` (no 【沙箱】 labels, no sandbox routes in the app),
 * the configured model name, the global fetch over TCP. Pass `llmEndpoint` to buildCheckApp.
 */
export async function startOpenAiEndpoint() {
  // The feature modules register their templates at import time (the app imports them all).
  const endpoint = await startLlmSandbox(registeredSandboxTemplates);
  const llmEndpoint: NonNullable<BuildOptions['llmEndpoint']> = {
    env: {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: endpoint.baseUrl,
      LLM_MODEL: 'deepseek-chat',
      LLM_API_KEY: SANDBOX_API_KEY,
    },
    async faults(body) {
      const res = await endpoint.faults(body);
      if (res.code !== 0) throw new Error(`faults not set: ${JSON.stringify(res)}`);
    },
  };
  return { endpoint, llmEndpoint, close: () => endpoint.close() };
}
