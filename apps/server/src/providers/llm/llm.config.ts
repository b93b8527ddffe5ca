import { z } from 'zod';
import { envVar, integer } from '../../lib/env.ts';

/** Unset and blank both mean "not given". */
function optional<T extends z.ZodType>(schema: T) {
  return envVar(schema.optional());
}
function withDefault<T extends z.ZodType>(schema: T, value: z.output<T>) {
  return envVar(schema.default(value as never));
}
const price = z.coerce
  .number({ error: 'must be a number of yuan per million tokens, e.g. 2 or 0.8' })
  .min(0, { error: 'must not be negative' })
  .max(100_000, { error: 'must be at most 100000 yuan per million tokens' });

/** `task=model,task=model`: per-task model overrides. */
const taskModels = z
  .string()
  .trim()
  .regex(/^([\w.-]+=[^,=\s]+)(\s*,\s*[\w.-]+=[^,=\s]+)*$/, {
    error: 'must be task=model pairs separated by commas, e.g. writing.section=deepseek-reasoner',
  });

/**
 * Environment fragment of the LLM provider; merge its `.shape` into the server's env schema.
 * LLM_PROVIDER follows PROVIDERS (real: openai) unless set.
 */
export const llmEnvSchema = z.object({
  LLM_PROVIDER: optional(z.enum(['sandbox', 'openai'], { error: 'must be sandbox or openai' })),
  LLM_BASE_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.deepseek.com/v1' }),
  ),
  LLM_API_KEY: optional(z.string().trim()),
  LLM_MODEL: optional(z.string().trim().min(1).max(200)),
  LLM_TASK_MODELS: optional(taskModels),
  LLM_RESPONSE_FORMAT: withDefault(
    z.enum(['json_schema', 'json_object', 'none'], { error: 'must be json_schema, json_object or none' }),
    'json_object',
  ),
  LLM_TIMEOUT_MS: withDefault(integer(1_000, 30 * 60_000), 180_000),
  LLM_MAX_RETRIES: withDefault(integer(0, 10), 3),
  LLM_RETRY_BASE_MS: withDefault(integer(0, 60_000), 1_000),
  LLM_CONCURRENCY: withDefault(integer(1, 256), 4),
  LLM_STRUCTURED_REPAIRS: withDefault(integer(0, 5), 2),
  LLM_MAX_OUTPUT_TOKENS: withDefault(integer(256, 1_000_000), 8192),
  LLM_OUTPUT_ATTEMPTS: withDefault(integer(1, 10), 3),
  LLM_PRICE_INPUT: withDefault(price, 0),
  LLM_PRICE_OUTPUT: withDefault(price, 0),
});

export type LlmEnv = z.output<typeof llmEnvSchema>;

export interface LlmConfig {
  provider: 'sandbox' | 'openai';
  /** Without a trailing slash; ends in the version folder (…/v1). Null for the sandbox (its own address). */
  baseUrl: string | null;
  apiKey: string | null;
  /** Null for the sandbox (it answers as `kyfw-sandbox`). */
  model: string | null;
  taskModels: Record<string, string>;
  responseFormat: 'json_schema' | 'json_object' | 'none';
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  concurrency: number;
  structuredRepairs: number;
  /** The largest `max_tokens` any call sends (the endpoint's output limit: 8192 for deepseek-chat and qwen-plus). */
  maxOutputTokens: number;
  /** Answers runChecked asks for (the first and its regenerations) before it gives up with the violations. */
  outputAttempts: number;
  /** Yuan per million prompt / completion tokens. */
  priceInput: number;
  priceOutput: number;
}

/** The LLM part of the configuration; `providers` is PROVIDERS. */
export function llmConfigOf(e: LlmEnv, providers: 'sandbox' | 'real'): LlmConfig {
  const taskModels: Record<string, string> = {};
  for (const pair of (e.LLM_TASK_MODELS ?? '').split(',')) {
    const [task, model] = pair.split('=').map((s) => s.trim());
    if (task && model) taskModels[task] = model;
  }
  return {
    provider: e.LLM_PROVIDER ?? (providers === 'real' ? 'openai' : 'sandbox'),
    baseUrl: e.LLM_BASE_URL ? e.LLM_BASE_URL.replace(/\/+$/, '') : null,
    apiKey: e.LLM_API_KEY || null,
    model: e.LLM_MODEL ?? null,
    taskModels,
    responseFormat: e.LLM_RESPONSE_FORMAT,
    timeoutMs: e.LLM_TIMEOUT_MS,
    maxRetries: e.LLM_MAX_RETRIES,
    retryBaseMs: e.LLM_RETRY_BASE_MS,
    concurrency: e.LLM_CONCURRENCY,
    structuredRepairs: e.LLM_STRUCTURED_REPAIRS,
    maxOutputTokens: e.LLM_MAX_OUTPUT_TOKENS,
    outputAttempts: e.LLM_OUTPUT_ATTEMPTS,
    priceInput: e.LLM_PRICE_INPUT,
    priceOutput: e.LLM_PRICE_OUTPUT,
  };
}

/**
 * What keeps the configured LLM from starting: a real endpoint without LLM_BASE_URL or LLM_MODEL,
 * or the sandbox in production (unless ALLOW_SANDBOX_IN_PRODUCTION). Empty when it may start.
 */
export function listLlmConfigProblems(
  config: LlmConfig,
  options: { production: boolean; allowSandbox: boolean },
): string[] {
  const problems: string[] = [];
  if (config.provider === 'openai') {
    if (!config.baseUrl)
      problems.push(
        'LLM_BASE_URL: required when the LLM provider is real (PROVIDERS=real or LLM_PROVIDER=openai)',
      );
    if (!config.model)
      problems.push(
        'LLM_MODEL: required when the LLM provider is real (PROVIDERS=real or LLM_PROVIDER=openai)',
      );
  } else if (options.production && !options.allowSandbox) {
    problems.push(
      'LLM_PROVIDER: the LLM sandbox (template text marked 【沙箱示例】) is refused with NODE_ENV=production',
    );
  }
  return problems;
}
