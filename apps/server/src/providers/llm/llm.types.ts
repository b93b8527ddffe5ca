/**
 * The LLM provider interface every AI feature (AI writing, 降重, 降AIGC) calls: OpenAI-compatible
 * Chat Completions, plain or streamed, and structured output validated against a zod schema. One
 * adapter (openai.adapter.ts) talks to any compatible endpoint — a real one (DeepSeek, Qwen via
 * DashScope's compatible mode, Kimi, GLM, vLLM, Ollama) or the loopback sandbox (llm.sandbox.ts).
 */
import type { z } from 'zod';

export type LlmProviderKind = 'sandbox' | 'openai';

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Who a call is for: recorded with its tokens and cost (table llm_usage). */
export interface LlmAccounting {
  /** What the call does, e.g. 'writing.title', 'writing.section', 'reduction.rewrite'; picks the model override. */
  task: string;
  orderNo?: string | null;
  userId?: string | null;
}

export interface LlmChatRequest extends LlmAccounting {
  messages: LlmMessage[];
  /** Sent as `temperature`; default: the task's entry in LLM_TASK_LIMITS (llm.tasks.ts). */
  temperature?: number;
  /**
   * Sent as `max_tokens` (clamped to LLM_MAX_OUTPUT_TOKENS); default: the task's entry in
   * LLM_TASK_LIMITS. `maxTokensForChars(n)` gives room for about n Chinese characters.
   */
  maxTokens?: number;
  /**
   * The most characters accepted (default `maxCharsForTokens(maxTokens)`): a longer answer is cut
   * there — a stream is aborted, not buffered — and counts as truncated.
   */
  maxChars?: number;
  /**
   * A truncated answer (finish reason `length`, or cut at maxChars) is returned with
   * `truncated: true` instead of thrown as LlmError kind 'truncated'. Only for callers that look
   * at `truncated` (e.g. runChecked, which retries with more room).
   */
  allowTruncated?: boolean;
  /** Aborts the call (and its retries); e.g. a job's signal. */
  signal?: AbortSignal;
  /**
   * Streams the answer (SSE) and calls this with the whole text received so far after each chunk.
   * A retry after a cut stream starts again from the empty text.
   */
  onText?: (textSoFar: string) => void;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /** Millionths of a yuan at the configured prices (LLM_PRICE_INPUT / LLM_PRICE_OUTPUT). */
  costMicroYuan: number;
}

export interface LlmChatResult {
  text: string;
  model: string;
  provider: LlmProviderKind;
  /** 'stop', 'length', … as the endpoint said ('length' too when the adapter cut at maxChars); null when it did not. */
  finishReason: string | null;
  /** The answer stopped before its end (finish reason `length`); only ever true with allowTruncated. */
  truncated: boolean;
  /** Sum over every attempt of this call that the endpoint billed. */
  usage: LlmUsage;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

export interface LlmStructuredRequest<T> extends Omit<LlmChatRequest, 'onText' | 'allowTruncated'> {
  /** The answer must parse as JSON and pass this schema. */
  schema: z.ZodType<T>;
  /** A short identifier for response_format.json_schema.name, e.g. 'title_suggestions'. */
  schemaName: string;
}

export interface LlmStructuredResult<T> extends Omit<LlmChatResult, 'text' | 'truncated'> {
  value: T;
  /** Model answers that failed to parse or validate before the accepted one. */
  repairs: number;
}

export interface LlmProvider {
  readonly kind: LlmProviderKind;
  /** The model a task runs on (LLM_MODEL, or its LLM_TASK_MODELS override). */
  modelFor(task: string): string;
  /** LLM_OUTPUT_ATTEMPTS: how many answers runChecked asks for before it gives up (absent: 3). */
  readonly outputAttempts?: number;
  /** LLM_MAX_OUTPUT_TOKENS: the largest `max_tokens` sent (absent: 8192). */
  readonly maxOutputTokens?: number;
  /**
   * One completion, retried with backoff on 429, 5xx, network failures, timeouts, malformed
   * answers and cut streams. Sends `max_tokens` and `temperature` (the task's defaults unless given)
   * and reads at most `maxChars` characters.
   * @throws LlmError when every attempt failed, or at once for a request the endpoint refuses (4xx);
   *   kind 'truncated' when the answer was cut off (finish reason `length` or past maxChars) and
   *   the caller did not set allowTruncated
   */
  chat(request: LlmChatRequest): Promise<LlmChatResult>;
  /**
   * A completion whose text is JSON passing `schema`: asks for response_format json_schema (or
   * json_object, per LLM_RESPONSE_FORMAT), puts the schema in the prompt too, repairs common
   * defects (code fences, prose around the object, trailing commas) and asks again with the
   * validation error when the answer still does not pass.
   * @throws LlmError kind 'bad_output' when no answer passed after the configured repairs; kind
   *   'truncated' when an answer was cut off (JSON cut in the middle is never repaired)
   */
  structured<T>(request: LlmStructuredRequest<T>): Promise<LlmStructuredResult<T>>;
}

export type LlmErrorKind =
  /** No answer within LLM_TIMEOUT_MS (after retries). */
  | 'timeout'
  /** 429 after every retry. */
  | 'rate_limited'
  /** 5xx, network failure or cut stream after every retry. */
  | 'unavailable'
  /** The endpoint refused the request (400/401/403/404…): configuration, not luck. */
  | 'rejected'
  /** The HTTP answer was not a Chat Completions answer (after retries). */
  | 'bad_response'
  /** The text never passed the schema (structured output). */
  | 'bad_output'
  /**
   * The answer was cut off: finish reason `length` (max_tokens reached) or longer than the
   * characters the call accepts. Not retried by the adapter (the same request would be cut again).
   */
  | 'truncated'
  /** The caller's signal aborted the call. */
  | 'aborted';

/** Every failure of an LlmProvider. Messages name no key and no prompt. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  /** The HTTP status of the last attempt, when there was one. */
  readonly status: number | undefined;
  /** Tokens the endpoint billed for this call before it failed ('truncated', 'bad_output'), when known. */
  readonly usage: LlmUsage | undefined;
  /**
   * 'truncated': what was read before the cut (never delivered; lets a check name what the answer
   * was — an echo of the prompt, a refusal — rather than only that it was cut off).
   */
  readonly partialText: string | undefined;

  constructor(
    kind: LlmErrorKind,
    message: string,
    options?: ErrorOptions & { status?: number; usage?: LlmUsage; partialText?: string },
  ) {
    super(message, options);
    this.kind = kind;
    this.status = options?.status;
    this.usage = options?.usage;
    this.partialText = options?.partialText;
  }
}

/** One billed call, as the usage recorder receives it. */
export interface LlmUsageRecord extends LlmAccounting {
  provider: LlmProviderKind;
  model: string;
  promptTokens: number;
  completionTokens: number;
  costMicroYuan: number;
}

export type LlmUsageRecorder = (record: LlmUsageRecord) => Promise<void>;
