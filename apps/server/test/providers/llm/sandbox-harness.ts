import Fastify from 'fastify';
import {
  createLlmSandbox,
  createOpenAiLlmProvider,
  LLM_SANDBOX_PATH,
  type LlmFaultsInput,
  type LlmSandbox,
  type LlmUsageRecord,
  llmDevRoutes,
  type OpenAiAdapterOptions,
  SANDBOX_API_KEY,
  SANDBOX_MODEL,
  type SandboxTemplate,
} from '../../../src/providers/llm/index.ts';

/**
 * The LLM sandbox and its fault route on a listening Fastify server (loopback, real HTTP), and the
 * real adapter pointed at it: what the LLM provider tests drive.
 */
export async function startLlmSandbox(
  templates: Record<string, SandboxTemplate> | ReadonlyMap<string, SandboxTemplate> = {},
) {
  const sandbox: LlmSandbox = createLlmSandbox({ templates });
  const server = Fastify();
  await server.register(sandbox.routes, { prefix: LLM_SANDBOX_PATH });
  await server.register(llmDevRoutes, { sandbox });
  const origin = await server.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `${origin}${LLM_SANDBOX_PATH}/v1`;

  /** The adapter against this sandbox, with fast retries and the usage it records. */
  function provider(overrides: Partial<OpenAiAdapterOptions> = {}) {
    const records: LlmUsageRecord[] = [];
    const llm = createOpenAiLlmProvider({
      kind: 'sandbox',
      baseUrl,
      apiKey: SANDBOX_API_KEY,
      model: SANDBOX_MODEL,
      responseFormat: 'json_schema',
      timeoutMs: 10_000,
      maxRetries: 3,
      retryBaseMs: 0,
      concurrency: 4,
      structuredRepairs: 2,
      priceInput: 2,
      priceOutput: 8,
      recordUsage: async (record) => {
        records.push(record);
      },
      ...overrides,
    });
    return { llm, records };
  }

  /** Sets faults through the dev route, as a tester would; the route's whole answer. */
  async function faults(input: LlmFaultsInput) {
    const response = await fetch(`${origin}/__dev/llm/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return (await response.json()) as {
      code: number;
      data: {
        faults: Record<string, number>;
        applied: { kind: string; task: string; request: number }[];
      };
    };
  }

  return { sandbox, origin, baseUrl, provider, faults, close: () => server.close() };
}
