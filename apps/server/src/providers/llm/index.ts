import type { Database, Kysely } from '@kyfw/db';
import type { LlmConfig } from './llm.config.ts';
import {
  createLlmSandbox,
  LLM_SANDBOX_PATH,
  type LlmSandbox,
  SANDBOX_API_KEY,
  SANDBOX_MODEL,
  type SandboxTemplate,
} from './llm.sandbox.ts';
import type { LlmProvider } from './llm.types.ts';
import { createOpenAiLlmProvider } from './openai.adapter.ts';
import { createUsageRecorder } from './usage.repo.ts';

export { parseJsonLoose } from './json-repair.ts';
export * from './llm.config.ts';
export { llmDevRoutes } from './llm.dev-routes.ts';
export * from './llm.sandbox.ts';
export * from './llm.tasks.ts';
export * from './llm.types.ts';
export * from './material.ts';
export {
  createOpenAiLlmProvider,
  estimateTokens,
  type OpenAiAdapterOptions,
  partialContentOf,
  withoutReasoning,
} from './openai.adapter.ts';
export * from './output-check.ts';
export * from './run-checked.ts';
export { LLM_CONTENT_FAULT_KINDS, type LlmContentFaultKind } from './sandbox-faults.ts';
export {
  factsOf,
  hashOf,
  SANDBOX_MARK,
  type SandboxPrompt,
  sandboxText,
  sandboxValue,
} from './sandbox-text.ts';
export {
  chinaDayKey,
  createUsageRecorder,
  dailySpendOf,
  freeUserScope,
  type OrderLlmUsage,
  pruneDailySpend,
  usageOfOrder,
} from './usage.repo.ts';

/**
 * Sandbox templates of feature modules, by task (e.g. 'writing.title'); a module adds its own at
 * import time with `registerSandboxTemplate`, and every sandbox built afterwards answers with them.
 */
const sandboxTemplates = new Map<string, SandboxTemplate>();
export function registerSandboxTemplate(task: string, template: SandboxTemplate): void {
  sandboxTemplates.set(task, template);
}
/** The templates registered so far (live): for a sandbox built outside createLlmSetup (benchmarks). */
export const registeredSandboxTemplates: ReadonlyMap<string, SandboxTemplate> = sandboxTemplates;

export interface LlmSetup {
  provider: LlmProvider;
  /** Present exactly with the sandbox: mount `sandbox.routes` under LLM_SANDBOX_PATH and llmDevRoutes. */
  sandbox: LlmSandbox | null;
}

/**
 * Builds the configured LLM provider: the OpenAI-compatible adapter, pointed at LLM_BASE_URL, or at
 * our own loopback sandbox (`${publicBaseUrl}/__sandbox/llm/v1`) in sandbox mode. Token usage is
 * recorded in llm_usage when `db` is given.
 * @throws Error when a real endpoint lacks LLM_BASE_URL or LLM_MODEL (loadConfig reports it first)
 */
export function createLlmSetup(
  config: LlmConfig,
  options: {
    publicBaseUrl: string;
    fetch?: typeof fetch;
    db?: Kysely<Database>;
    /** The clock llm_usage rows are stamped with (the daily budget counts by it); default the database's. */
    now?: () => Date;
    onRecordError?: (error: unknown) => void;
  },
): LlmSetup {
  const common = {
    taskModels: config.taskModels,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    retryBaseMs: config.retryBaseMs,
    concurrency: config.concurrency,
    structuredRepairs: config.structuredRepairs,
    maxOutputTokens: config.maxOutputTokens,
    outputAttempts: config.outputAttempts,
    priceInput: config.priceInput,
    priceOutput: config.priceOutput,
    fetch: options.fetch,
    recordUsage: options.db ? createUsageRecorder(options.db, options.now) : undefined,
    onRecordError: options.onRecordError,
  };
  if (config.provider === 'openai') {
    if (!config.baseUrl || !config.model)
      throw new Error('LLM configuration incomplete: LLM_BASE_URL and LLM_MODEL are required');
    return {
      provider: createOpenAiLlmProvider({
        ...common,
        kind: 'openai',
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        model: config.model,
        responseFormat: config.responseFormat,
      }),
      sandbox: null,
    };
  }
  const sandbox = createLlmSandbox({ templates: sandboxTemplates });
  return {
    provider: createOpenAiLlmProvider({
      ...common,
      kind: 'sandbox',
      baseUrl: `${options.publicBaseUrl}${LLM_SANDBOX_PATH}/v1`,
      apiKey: SANDBOX_API_KEY,
      model: SANDBOX_MODEL,
      taskModels: {},
      // The sandbox is fast; retries need not wait long.
      retryBaseMs: Math.min(config.retryBaseMs, 50),
      responseFormat: 'json_schema',
    }),
    sandbox,
  };
}
