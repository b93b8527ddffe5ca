import { z } from 'zod';
import { parseJsonLoose } from './json-repair.ts';
import { createLimiter } from './limiter.ts';
import { maxCharsForTokens, taskLimitsOf } from './llm.tasks.ts';
import type {
  LlmChatRequest,
  LlmChatResult,
  LlmErrorKind,
  LlmMessage,
  LlmProvider,
  LlmProviderKind,
  LlmStructuredRequest,
  LlmStructuredResult,
  LlmUsage,
  LlmUsageRecorder,
} from './llm.types.ts';
import { LlmError } from './llm.types.ts';
import { readSseData } from './sse.ts';

export interface OpenAiAdapterOptions {
  /** 'sandbox' when baseUrl is our loopback sandbox (recorded with the usage). */
  kind: LlmProviderKind;
  /** …/v1 without a trailing slash; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey: string | null;
  model: string;
  taskModels?: Record<string, string>;
  responseFormat: 'json_schema' | 'json_object' | 'none';
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  concurrency: number;
  structuredRepairs: number;
  /** Yuan per million tokens. */
  priceInput: number;
  priceOutput: number;
  fetch?: typeof fetch;
  /** Called once per billed attempt; a failing recorder is logged, never fails the call. */
  recordUsage?: LlmUsageRecorder;
  onRecordError?: (error: unknown) => void;
  /** LLM_MAX_OUTPUT_TOKENS: the largest `max_tokens` sent (default 8192). */
  maxOutputTokens?: number;
  /** LLM_OUTPUT_ATTEMPTS: answers runChecked asks for before giving up (default 3). */
  outputAttempts?: number;
  /** Waits between retries; tests may shorten it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A failure another attempt may cure. */
class RetryableError extends Error {
  readonly kind: LlmErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(kind: LlmErrorKind, message: string, status?: number, retryAfterMs?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

interface AttemptResult {
  text: string;
  model: string;
  /** 'length' too when the adapter cut the answer at maxChars. */
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
}

const chunkSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish() }).partial().nullish(),
        message: z.object({ content: z.string().nullish() }).partial().nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

/** Rough token count for endpoints that send no usage: CJK characters ~1 token, other text ~4 chars. */
export function estimateTokens(text: string): number {
  const cjk = text.match(/[\u3000-\u9fff\uff00-\uffef]/g)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Reads a body up to `maxBytes`; past that it stops reading (cancels the body) and says so: a
 * 700,000-character answer is never buffered whole.
 */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<{ raw: string; over: boolean }> {
  if (!body) return { raw: '', over: false };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let raw = '';
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    raw += decoder.decode(value, { stream: true });
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      return { raw, over: true };
    }
  }
  return { raw: raw + decoder.decode(), over: false };
}

/**
 * The message content of a completion body cut part-way (`…"content":"text so far`): the JSON
 * string decoded up to where the body stops; '' when the body never reached it.
 */
export function partialContentOf(raw: string): string {
  const start = /"content"\s*:\s*"/.exec(raw);
  if (!start) return '';
  let i = start.index + start[0].length;
  let body = '';
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === '"') break;
    if (c === '\\') {
      const pair = c + (raw[i + 1] ?? '');
      if (raw[i + 1] === 'u') {
        const hex = raw.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
        body += raw.slice(i, i + 6);
        i += 6;
        continue;
      }
      if (pair.length < 2) break;
      body += pair;
      i += 2;
      continue;
    }
    body += c;
    i += 1;
  }
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return '';
  }
}

/**
 * The answer without the thinking a reasoning model may send inside its content
 * (`<think>…</think>` first, as Ollama and vLLM do for DeepSeek-R1 and Qwen3): that is not part
 * of the answer, and JSON or prose checks would trip on it. A thinking block that never closes is
 * all there is: the answer is then empty.
 */
export function withoutReasoning(text: string): string {
  const m = /^\s*<think>[\s\S]*?(?:<\/think>|$)\s*/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * The adapter for any OpenAI-compatible Chat Completions endpoint (and for our sandbox, which
 * speaks the same protocol). Attempts are limited to `concurrency` at once per process.
 */
export function createOpenAiLlmProvider(options: OpenAiAdapterOptions): LlmProvider {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const limiter = createLimiter(options.concurrency);
  const url = `${options.baseUrl}/chat/completions`;

  const modelFor = (task: string) => options.taskModels?.[task] ?? options.model;
  const maxOutputTokens = options.maxOutputTokens ?? 8192;
  const costOf = (prompt: number, completion: number) =>
    Math.round(prompt * options.priceInput + completion * options.priceOutput);

  async function attempt(
    body: Record<string, unknown>,
    request: LlmChatRequest,
    stream: boolean,
    maxChars: number,
  ): Promise<AttemptResult> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      // Ignored by real endpoints; lets the sandbox pick its template.
      'x-kyfw-task': request.task,
    };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    try {
      const response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      if (response.status === 429 || response.status === 408 || response.status >= 500) {
        await response.body?.cancel().catch(() => {});
        throw new RetryableError(
          response.status === 429 ? 'rate_limited' : 'unavailable',
          `LLM endpoint answered HTTP ${response.status}`,
          response.status,
          retryAfterMs(response.headers.get('retry-after')),
        );
      }
      if (!response.ok) {
        const detail = (await response.text().catch(() => '')).slice(0, 300);
        throw new LlmError(
          'rejected',
          `LLM endpoint refused the request: HTTP ${response.status} ${detail}`,
          {
            status: response.status,
          },
        );
      }
      const promptChars = (body.messages as LlmMessage[]).map((m) => m.content).join('\n');
      if (!stream) {
        // JSON may spend six bytes on a character (\uXXXX); the envelope needs a little more.
        const { raw, over } = await readCapped(response.body, maxChars * 6 + 16_384);
        if (over) {
          const text = partialContentOf(raw).slice(0, maxChars);
          return {
            text,
            model: String(body.model),
            finishReason: 'length',
            promptTokens: estimateTokens(promptChars),
            completionTokens: estimateTokens(text),
          };
        }
        let parsed: z.infer<typeof chunkSchema>;
        try {
          parsed = chunkSchema.parse(JSON.parse(raw));
        } catch {
          throw new RetryableError(
            'bad_response',
            'LLM endpoint answered something that is not a completion',
          );
        }
        const choice = parsed.choices[0];
        const content = choice?.message?.content;
        if (typeof content !== 'string')
          throw new RetryableError('bad_response', 'LLM answer has no message content');
        const text = content.slice(0, maxChars);
        return {
          text,
          model: parsed.model ?? String(body.model),
          finishReason: content.length > maxChars ? 'length' : (choice?.finish_reason ?? null),
          promptTokens: parsed.usage?.prompt_tokens ?? estimateTokens(promptChars),
          completionTokens: parsed.usage?.completion_tokens ?? estimateTokens(text),
        };
      }
      if (!response.body) throw new RetryableError('bad_response', 'LLM stream has no body');
      let text = '';
      let finishReason: string | null = null;
      let model = String(body.model);
      let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
      let done = false;
      try {
        for await (const data of readSseData(response.body)) {
          if (data.trim() === '[DONE]') {
            done = true;
            break;
          }
          let chunk: z.infer<typeof chunkSchema>;
          try {
            chunk = chunkSchema.parse(JSON.parse(data));
          } catch {
            throw new RetryableError(
              'bad_response',
              'LLM stream carried an event that is not a completion chunk',
            );
          }
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices[0];
          const piece = choice?.delta?.content;
          if (piece) {
            text += piece;
            if (text.length > maxChars) {
              // Past what the call accepts: stop reading (the connection is dropped), keep the cap.
              text = text.slice(0, maxChars);
              finishReason = 'length';
              request.onText?.(text);
              break;
            }
            request.onText?.(text);
          }
          if (choice?.finish_reason) finishReason = choice.finish_reason;
        }
      } catch (error) {
        if (error instanceof RetryableError || signal.aborted) throw error;
        throw new RetryableError('unavailable', 'LLM stream was cut off');
      }
      if (!done) await response.body.cancel().catch(() => {});
      // Some servers omit [DONE]; a finish_reason still proves the answer is complete.
      if (!done && !finishReason) throw new RetryableError('unavailable', 'LLM stream was cut off');
      return {
        text,
        model,
        finishReason,
        promptTokens: usage?.prompt_tokens ?? estimateTokens(promptChars),
        completionTokens: usage?.completion_tokens ?? estimateTokens(text),
      };
    } catch (error) {
      if (error instanceof RetryableError || error instanceof LlmError) throw error;
      if (request.signal?.aborted) throw new LlmError('aborted', 'LLM call aborted', { cause: error });
      if (timeout.aborted)
        throw new RetryableError('timeout', `LLM endpoint gave no answer within ${options.timeoutMs} ms`);
      throw new RetryableError('unavailable', `LLM endpoint unreachable: ${(error as Error).message}`);
    }
  }

  async function chatWith(request: LlmChatRequest, extra: Record<string, unknown>): Promise<LlmChatResult> {
    const model = modelFor(request.task);
    const stream = Boolean(request.onText);
    const limits = taskLimitsOf(request.task);
    const maxTokens = Math.max(1, Math.min(request.maxTokens ?? limits.maxTokens, maxOutputTokens));
    const maxChars = request.maxChars ?? maxCharsForTokens(maxTokens);
    const body: Record<string, unknown> = {
      model,
      messages: request.messages,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      temperature: request.temperature ?? limits.temperature,
      max_tokens: maxTokens,
      ...extra,
    };
    const usage: LlmUsage = { promptTokens: 0, completionTokens: 0, costMicroYuan: 0 };
    for (let n = 0; ; n += 1) {
      try {
        const result = await limiter.run(() => attempt(body, request, stream, maxChars));
        const cost = costOf(result.promptTokens, result.completionTokens);
        usage.promptTokens += result.promptTokens;
        usage.completionTokens += result.completionTokens;
        usage.costMicroYuan += cost;
        if (options.recordUsage) {
          await options
            .recordUsage({
              task: request.task,
              orderNo: request.orderNo ?? null,
              userId: request.userId ?? null,
              provider: options.kind,
              model: result.model,
              promptTokens: result.promptTokens,
              completionTokens: result.completionTokens,
              costMicroYuan: cost,
            })
            .catch((error) => options.onRecordError?.(error));
        }
        const truncated = result.finishReason === 'length';
        if (truncated && !request.allowTruncated) {
          throw new LlmError(
            'truncated',
            `LLM answer was cut off (finish_reason length; max_tokens ${maxTokens}, ${result.text.length} characters read)`,
            { usage, partialText: withoutReasoning(result.text) },
          );
        }
        return {
          text: withoutReasoning(result.text),
          model: result.model,
          provider: options.kind,
          finishReason: result.finishReason,
          truncated,
          usage,
          attempts: n + 1,
        };
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        if (n >= options.maxRetries) {
          throw new LlmError(error.kind, `${error.message} (after ${n + 1} attempts)`, {
            status: error.status,
          });
        }
        const backoff = error.retryAfterMs ?? options.retryBaseMs * 2 ** n * (0.75 + Math.random() * 0.5);
        try {
          await sleep(Math.min(backoff, 60_000), request.signal);
        } catch (cause) {
          throw new LlmError('aborted', 'LLM call aborted', { cause });
        }
      }
    }
  }

  return {
    kind: options.kind,
    modelFor,
    outputAttempts: options.outputAttempts ?? 3,
    maxOutputTokens,
    chat: (request) => chatWith(request, {}),

    async structured<T>(request: LlmStructuredRequest<T>): Promise<LlmStructuredResult<T>> {
      const jsonSchema = z.toJSONSchema(request.schema, { io: 'input', unrepresentable: 'any' });
      const instruction =
        '只输出一个 JSON 对象（不要代码块、不要解释），它必须符合下面的 JSON Schema：\n' +
        `\`\`\`json\n${JSON.stringify(jsonSchema)}\n\`\`\``;
      const messages: LlmMessage[] = [...request.messages];
      const first = messages[0];
      if (first?.role === 'system')
        messages[0] = { role: 'system', content: `${first.content}\n\n${instruction}` };
      else messages.unshift({ role: 'system', content: instruction });
      const extra =
        options.responseFormat === 'json_schema'
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: request.schemaName, schema: jsonSchema, strict: false },
              },
            }
          : options.responseFormat === 'json_object'
            ? { response_format: { type: 'json_object' } }
            : {};
      const usage: LlmUsage = { promptTokens: 0, completionTokens: 0, costMicroYuan: 0 };
      let attempts = 0;
      for (let repair = 0; ; repair += 1) {
        const { schema: _schema, schemaName: _name, ...chatRequest } = request;
        let answer: LlmChatResult;
        try {
          answer = await chatWith({ ...chatRequest, messages }, extra);
        } catch (error) {
          if (!(error instanceof LlmError && error.kind === 'truncated' && error.usage)) throw error;
          const spent = error.usage;
          throw new LlmError('truncated', error.message, {
            partialText: error.partialText,
            usage: {
              promptTokens: usage.promptTokens + spent.promptTokens,
              completionTokens: usage.completionTokens + spent.completionTokens,
              costMicroYuan: usage.costMicroYuan + spent.costMicroYuan,
            },
          });
        }
        usage.promptTokens += answer.usage.promptTokens;
        usage.completionTokens += answer.usage.completionTokens;
        usage.costMicroYuan += answer.usage.costMicroYuan;
        attempts += answer.attempts;
        const parsed = parseJsonLoose(answer.text);
        const checked = parsed === undefined ? null : request.schema.safeParse(parsed);
        if (checked?.success) {
          const { text: _text, truncated: _truncated, ...rest } = answer;
          return { ...rest, value: checked.data, usage, attempts, repairs: repair };
        }
        if (repair >= options.structuredRepairs) {
          throw new LlmError(
            'bad_output',
            `LLM answer did not match the ${request.schemaName} schema after ${repair + 1} answers`,
            { usage },
          );
        }
        const problem = checked
          ? checked.error.issues
              .slice(0, 3)
              .map((issue) => `${issue.path.join('.') || '(根)'}: ${issue.message}`)
              .join('；')
          : '不是合法的 JSON';
        messages.push(
          { role: 'assistant', content: answer.text.slice(0, 4000) },
          { role: 'user', content: `上一个回答不符合要求（${problem}）。请只输出修正后的完整 JSON 对象。` },
        );
      }
    },
  };
}
