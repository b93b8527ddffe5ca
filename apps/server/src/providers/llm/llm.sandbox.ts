import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseJsonLoose } from './json-repair.ts';
import { estimateTokens } from './openai.adapter.ts';
import {
  applyContentFault,
  LLM_CONTENT_FAULT_KINDS,
  type LlmContentFaultKind,
  mapTextStrings,
  WHOLE_ANSWER_FAULTS,
} from './sandbox-faults.ts';
import { SANDBOX_MARK, type SandboxPrompt, sandboxText, sandboxValue } from './sandbox-text.ts';
import { sseEvent } from './sse.ts';

/** The model name the sandbox answers as. */
export const SANDBOX_MODEL = 'kyfw-sandbox';
/** The bearer token the sandbox expects (it is no secret: the sandbox only ever answers templates). */
export const SANDBOX_API_KEY = 'kyfw-sandbox-key';
/** Where the LLM sandbox is mounted; the adapter's base URL is `${publicBaseUrl}${LLM_SANDBOX_PATH}/v1`. */
export const LLM_SANDBOX_PATH = '/__sandbox/llm';

/**
 * Builds a structured answer for one task (by the `x-kyfw-task` header), or returns undefined to
 * fall back to the generic schema-driven value. For a plain-text request (no JSON asked) a template
 * that returns a string answers that text; anything else falls back to the generic text. Every string it returns must carry 【沙箱示例】
 * where a reader could take it for written text.
 */
export type SandboxTemplate = (prompt: SandboxPrompt, schema: unknown) => unknown;

export const LLM_FAULT_KINDS = [
  'slow',
  'rateLimited',
  'serverError',
  'malformed',
  'cut',
  'nonsense',
  'phantomCitations',
  ...LLM_CONTENT_FAULT_KINDS,
] as const;
export type LlmFaultKind = (typeof LLM_FAULT_KINDS)[number];

const count = z.number().int().min(0).max(1000).optional();
/** Counters of the content faults (see sandbox-faults.ts and README.md): the next n answers are … */
const contentFaults = {
  /** … given invented sources: 王明和李华（2021）, Smith et al. (2020), a DOI, a URL, a 《journal》 not in the prompt, and a 参考文献 block [1]–[3]. */
  inventedCitations: count,
  /** … with one number changed (8所 → 18所; years and [n] are left alone). */
  driftNumber: count,
  /** … with a sign flipped (-3.2% → 3.2%; else a percentage or decimal made negative). */
  driftSign: count,
  /** … with a direction or polarity word reversed (增长→下降, 提高→降低, 增加→减少, 正相关→负相关, 显著→不显著, a negation dropped or added). */
  driftDirection: count,
  /** … with a person, place or organisation name changed (王建华 → 王建国, 北京 → 上海, …大学). */
  driftName: count,
  /** … with one sentence left out. */
  dropSentence: count,
  /** … with a new sentence carrying a new number and a new citation [9]. */
  addClaim: count,
  /** … a refusal (抱歉，我无法完成这个请求…). */
  refusal: count,
  /** … empty. */
  empty: count,
  /** … an English paragraph. */
  english: count,
  /** … wrapped in 好的，以下是改写后的段落： and （说明：…）. */
  preamble: count,
  /** … the system prompt's own text. */
  promptEcho: count,
  /** … what an instruction planted in the user's text asked for (or the system prompt). */
  injectionObeyed: count,
  /** … `hugeChars` characters long (default 700,000), ignoring max_tokens, streamed or not. */
  huge: count,
  /** … cut mid-sentence with finish_reason length. */
  cutOff: count,
};

export const llmFaultsSchema = z.object({
  reset: z.boolean().optional(),
  /** The next n answers wait `slowMs` first. */
  slow: z.number().int().min(0).max(100).optional(),
  slowMs: z.number().int().min(0).max(600_000).optional(),
  /** The next n answers are HTTP 429 with Retry-After: 0. */
  rateLimited: z.number().int().min(0).max(100).optional(),
  /** The next n answers are HTTP 500. */
  serverError: z.number().int().min(0).max(100).optional(),
  /** The next n answers are HTTP 200 whose body (or stream event) is not valid JSON. */
  malformed: z.number().int().min(0).max(100).optional(),
  /** The next n answers stop mid-way: the connection closes after part of the body or stream. */
  cut: z.number().int().min(0).max(100).optional(),
  /** The next n answers are well-formed completions whose text is nonsense (not the JSON asked for). */
  nonsense: z.number().int().min(0).max(100).optional(),
  /** The next n free-text answers also cite sources the prompt never listed ([97], [1,98]): a lying model. */
  phantomCitations: z.number().int().min(0).max(1000).optional(),
  ...contentFaults,
  /** How long a `huge` answer is, in characters (default 700,000). */
  hugeChars: z.number().int().min(1_000).max(5_000_000).optional(),
  /**
   * Content faults hit only answers whose task (x-kyfw-task) starts with this, e.g.
   * 'writing.section' or 'reduction.'; '' (or reset) makes them hit every answer again.
   */
  onlyTask: z.string().max(100).optional(),
});
export type LlmFaultsInput = z.infer<typeof llmFaultsSchema>;

export interface LlmSandboxState {
  faults: Record<LlmFaultKind, number>;
  slowMs: number;
  hugeChars: number;
  /** Content faults hit only tasks starting with this ('' = every task). */
  onlyTask: string;
  /** The content faults applied, most recent last (at most 100): which answer of which task got which. */
  applied: { kind: LlmContentFaultKind; task: string; request: number }[];
  /** Completions answered (any outcome). */
  requests: number;
}

export interface LlmSandbox {
  state: LlmSandboxState;
  setFaults(input: LlmFaultsInput): LlmSandboxState;
  /** Adds (or replaces) the template of a task. */
  addTemplate(task: string, template: SandboxTemplate): void;
  routes: FastifyPluginAsync;
}

const requestSchema = z.object({
  model: z.string().min(1),
  messages: z
    .array(
      z.object({ role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']), content: z.string() }),
    )
    .min(1),
  stream: z.boolean().optional(),
  response_format: z
    .object({
      type: z.enum(['text', 'json_object', 'json_schema']),
      json_schema: z.object({ name: z.string(), schema: z.unknown() }).partial().optional(),
    })
    .optional(),
  max_tokens: z.number().int().positive().optional(),
  temperature: z.number().optional(),
});

/** The longest start of `text` whose token estimate fits `maxTokens`. */
function prefixWithinTokens(text: string, maxTokens: number): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, mid)) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low);
}

/** Resolves when a stream can take more, or has closed. */
function drained(stream: NodeJS.WritableStream & { destroyed: boolean }): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

function openAiError(reply: FastifyReply, status: number, message: string, type: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ error: { message, type, code: null } });
}

/**
 * The loopback sandbox of an OpenAI-compatible endpoint: `POST /v1/chat/completions` (plain and
 * `stream: true` SSE with a usage chunk), `GET /v1/models`. Deterministic: the same request gets the
 * same text. Register under LLM_SANDBOX_PATH.
 */
export function createLlmSandbox(
  options: { templates?: ReadonlyMap<string, SandboxTemplate> | Record<string, SandboxTemplate> } = {},
): LlmSandbox {
  const templates =
    options.templates instanceof Map ? options.templates : new Map(Object.entries(options.templates ?? {}));
  const state: LlmSandboxState = {
    faults: Object.fromEntries(LLM_FAULT_KINDS.map((kind) => [kind, 0])) as Record<LlmFaultKind, number>,
    slowMs: 3_000,
    hugeChars: 700_000,
    onlyTask: '',
    applied: [],
    requests: 0,
  };

  function takeFault(kind: LlmFaultKind): boolean {
    if (state.faults[kind] <= 0) return false;
    state.faults[kind] -= 1;
    return true;
  }

  const routes: FastifyPluginAsync = async (app) => {
    app.get('/v1/models', async () => ({
      object: 'list',
      data: [{ id: SANDBOX_MODEL, object: 'model', owned_by: 'kyfw-sandbox' }],
    }));

    app.post('/v1/chat/completions', async (request, reply) => {
      state.requests += 1;
      if (request.headers.authorization !== `Bearer ${SANDBOX_API_KEY}`) {
        return openAiError(reply, 401, 'Incorrect API key provided', 'invalid_request_error');
      }
      const parsed = requestSchema.safeParse(request.body);
      if (!parsed.success) {
        return openAiError(
          reply,
          400,
          `Invalid request: ${parsed.error.issues[0]?.message}`,
          'invalid_request_error',
        );
      }
      const body = parsed.data;
      if (takeFault('slow')) {
        await new Promise((resolve) => setTimeout(resolve, state.slowMs));
        // The caller gave up while we waited (a timeout): answer nothing and take no further fault,
        // which belongs to a later request.
        if (request.raw.socket?.destroyed || reply.raw.destroyed) return reply.code(499).send();
      }
      if (takeFault('rateLimited')) {
        reply.header('retry-after', '0');
        return openAiError(reply, 429, 'Rate limit reached (sandbox fault)', 'rate_limit_error');
      }
      if (takeFault('serverError'))
        return openAiError(reply, 500, 'Internal server error (sandbox fault)', 'server_error');

      const prompt: SandboxPrompt = {
        task: String(request.headers['x-kyfw-task'] ?? ''),
        system: body.messages
          .filter((m) => m.role === 'system')
          .map((m) => m.content)
          .join('\n'),
        user: body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '',
        all: body.messages.map((m) => `${m.role}:${m.content}`).join('\n'),
      };
      const wantsJson =
        body.response_format?.type === 'json_object' || body.response_format?.type === 'json_schema';
      const schemaInPrompt = /JSON Schema[^`]*```json\s*\n([\s\S]*?)```/.exec(
        prompt.system + prompt.user,
      )?.[1];
      const schema =
        body.response_format?.json_schema?.schema ??
        (schemaInPrompt ? parseJsonLoose(schemaInPrompt) : undefined);
      // The content faults this answer gets, in LLM_CONTENT_FAULT_KINDS order.
      const content = prompt.task.startsWith(state.onlyTask)
        ? LLM_CONTENT_FAULT_KINDS.filter((kind) => takeFault(kind))
        : [];
      for (const kind of content) {
        state.applied.push({ kind, task: prompt.task, request: state.requests });
        if (state.applied.length > 100) state.applied.shift();
      }
      const stringFaults = content.filter((kind) => !WHOLE_ANSWER_FAULTS.has(kind));
      const faulty = (t: string) =>
        stringFaults.reduce((acc, kind) => applyContentFault(kind, acc, prompt, state.hugeChars), t);
      let text: string;
      if (takeFault('nonsense')) {
        text = `${SANDBOX_MARK}（沙箱故障：无意义的回答）天气不错。`;
      } else if (wantsJson || schema !== undefined) {
        const template = templates.get(prompt.task);
        const value = template?.(prompt, schema) ?? sandboxValue(schema ?? { type: 'object' }, prompt);
        text = JSON.stringify(stringFaults.length > 0 ? mapTextStrings(value, faulty) : value);
      } else {
        // A task's template may answer plain text too (e.g. the 降重 rewrite of a paragraph).
        const value = templates.get(prompt.task)?.(prompt, undefined);
        text = typeof value === 'string' ? value : sandboxText(prompt);
        if (takeFault('phantomCitations'))
          text += '另有研究认为这一问题仍有争议[97]，相关结论尚待检验[1,98]。';
        text = faulty(text);
      }
      let finishReason = 'stop';
      for (const kind of content.filter((k) => WHOLE_ANSWER_FAULTS.has(k))) {
        text = applyContentFault(kind, text, prompt, state.hugeChars);
        if (kind === 'cutOff') finishReason = 'length';
      }
      // max_tokens is honoured as a real endpoint does (cut, finish_reason length) — except by a
      // huge answer, which plays an endpoint that ignores it.
      if (
        body.max_tokens !== undefined &&
        !content.includes('huge') &&
        estimateTokens(text) > body.max_tokens
      ) {
        text = prefixWithinTokens(text, body.max_tokens);
        finishReason = 'length';
      }

      const id = `chatcmpl-sandbox-${state.requests}`;
      const created = Math.floor(Date.now() / 1000);
      const usage = {
        prompt_tokens: estimateTokens(body.messages.map((m) => m.content).join('\n')),
        completion_tokens: estimateTokens(text),
      };
      const malformed = takeFault('malformed');
      const cut = takeFault('cut');

      if (!body.stream) {
        const full = JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: SANDBOX_MODEL,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        });
        if (malformed)
          return reply
            .code(200)
            .type('application/json')
            .send(full.slice(0, Math.floor(full.length / 2)));
        if (cut) {
          reply.hijack();
          reply.raw.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(full)),
          });
          reply.raw.write(full.slice(0, Math.floor(full.length / 2)), () => reply.raw.destroy());
          return reply;
        }
        return reply.code(200).type('application/json').send(full);
      }

      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
      });
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model: SANDBOX_MODEL,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      // Long answers go in bigger pieces (a huge one would otherwise be 30,000 events).
      const size = text.length > 20_000 ? 2_000 : 24;
      const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.slice(i * size, (i + 1) * size),
      );
      reply.raw.write(sseEvent(chunk({ role: 'assistant', content: '' }, null)));
      for (let i = 0; i < pieces.length; i += 1) {
        // The client hung up (e.g. the adapter stopped reading at its character cap): stop writing.
        if (reply.raw.destroyed || reply.raw.writableEnded) return reply;
        if (cut && i >= Math.floor(pieces.length / 2)) {
          // Close the connection once what was written has left, as a dropped upstream would.
          reply.raw.write('', () => reply.raw.destroy());
          return reply;
        }
        if (malformed && i === Math.floor(pieces.length / 2)) {
          reply.raw.write('data: {"choices": [{"delta": \n\n');
          reply.raw.end();
          return reply;
        }
        if (!reply.raw.write(sseEvent(chunk({ content: pieces[i] }, null)))) await drained(reply.raw);
      }
      if (reply.raw.destroyed) return reply;
      reply.raw.write(sseEvent(chunk({}, finishReason)));
      const wantsUsage = (request.body as { stream_options?: { include_usage?: boolean } }).stream_options
        ?.include_usage;
      if (wantsUsage) {
        reply.raw.write(
          sseEvent(
            JSON.stringify({
              id,
              object: 'chat.completion.chunk',
              created,
              model: SANDBOX_MODEL,
              choices: [],
              usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
            }),
          ),
        );
      }
      reply.raw.write(sseEvent('[DONE]'));
      reply.raw.end();
      return reply;
    });
  };

  return {
    state,
    routes,
    addTemplate(task, template) {
      templates.set(task, template);
    },
    setFaults(input) {
      if (input.reset) {
        for (const kind of LLM_FAULT_KINDS) state.faults[kind] = 0;
        state.slowMs = 3_000;
        state.hugeChars = 700_000;
        state.onlyTask = '';
        state.applied = [];
      }
      if (input.hugeChars !== undefined) state.hugeChars = input.hugeChars;
      if (input.onlyTask !== undefined) state.onlyTask = input.onlyTask.trim();
      for (const kind of LLM_FAULT_KINDS) {
        const n = input[kind];
        if (n !== undefined) state.faults[kind] = n;
      }
      if (input.slowMs !== undefined) state.slowMs = input.slowMs;
      return state;
    },
  };
}
