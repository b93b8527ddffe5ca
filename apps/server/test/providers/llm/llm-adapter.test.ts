import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type LlmFaultsInput,
  type LlmSandbox,
  SANDBOX_MARK,
  SANDBOX_MODEL,
} from '../../../src/providers/llm/index.ts';
import { startLlmSandbox } from './sandbox-harness.ts';

// The real adapter against the sandbox over loopback (a listening Fastify server, real fetch).
let harness: Awaited<ReturnType<typeof startLlmSandbox>>;
let sandbox: LlmSandbox;

beforeAll(async () => {
  harness = await startLlmSandbox();
  sandbox = harness.sandbox;
});
afterAll(async () => {
  await harness.close();
});
beforeEach(() => {
  sandbox.setFaults({ reset: true });
});

const provider: (typeof harness)['provider'] = (overrides) => harness.provider(overrides);

/** Sets faults through the dev route, as a tester would. */
async function faults(input: LlmFaultsInput) {
  const body = await harness.faults(input);
  expect(body.code).toBe(0);
  return body.data;
}

const prompt = {
  task: 'test.section',
  orderNo: 'W2026000001',
  userId: 'u1',
  messages: [
    { role: 'system' as const, content: '你是论文写作助手。' },
    {
      role: 'user' as const,
      content:
        '题目：城市社区养老服务研究\n请写约200字。\n可引用的来源：\n[1] 社区养老的供给结构\n[2] 智慧养老平台评估',
    },
  ],
};

const titlesSchema = z.object({
  titles: z.array(z.object({ title: z.string().min(1), reason: z.string().min(1) })).min(3),
});

describe('LLM adapter against the sandbox', () => {
  it('answers plainly with marked, deterministic text near the asked length, and records tokens and cost', async () => {
    const { llm, records } = provider();
    const a = await llm.chat(prompt);
    const b = await llm.chat(prompt);
    expect(a.text.startsWith(SANDBOX_MARK)).toBe(true);
    expect(a.text).toContain('城市社区养老服务研究');
    expect(a.text.length).toBeGreaterThanOrEqual(200);
    expect(a.text.length).toBeLessThan(320);
    expect(a.text).toMatch(/\[[12]\]/);
    expect(b.text).toBe(a.text);
    expect(a.attempts).toBe(1);
    expect(a.model).toBe(SANDBOX_MODEL);
    expect(a.usage.promptTokens).toBeGreaterThan(0);
    expect(a.usage.completionTokens).toBeGreaterThan(0);
    expect(a.usage.costMicroYuan).toBe(a.usage.promptTokens * 2 + a.usage.completionTokens * 8);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      task: 'test.section',
      orderNo: 'W2026000001',
      userId: 'u1',
      provider: 'sandbox',
      model: SANDBOX_MODEL,
      promptTokens: a.usage.promptTokens,
      completionTokens: a.usage.completionTokens,
    });
  });

  it('streams the same text in pieces', async () => {
    const { llm } = provider();
    const plain = await llm.chat(prompt);
    const seen: string[] = [];
    const streamed = await llm.chat({ ...prompt, onText: (text) => seen.push(text) });
    expect(streamed.text).toBe(plain.text);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe(plain.text);
    expect(streamed.usage.completionTokens).toBe(plain.usage.completionTokens);
  });

  it('returns structured output that passes the schema, in json_schema, json_object and plain mode', async () => {
    for (const responseFormat of ['json_schema', 'json_object', 'none'] as const) {
      const { llm } = provider({ responseFormat });
      const result = await llm.structured({ ...prompt, schema: titlesSchema, schemaName: 'titles' });
      expect(result.value.titles.length).toBeGreaterThanOrEqual(3);
      expect(result.value.titles[0]!.title.startsWith(SANDBOX_MARK)).toBe(true);
      expect(result.repairs).toBe(0);
    }
  });

  it('retries 429 and 500 answers and then succeeds', async () => {
    const { llm, records } = provider();
    expect((await faults({ rateLimited: 2 })).faults.rateLimited).toBe(2);
    const a = await llm.chat(prompt);
    expect(a.attempts).toBe(3);
    expect(a.text.startsWith(SANDBOX_MARK)).toBe(true);
    await faults({ serverError: 1 });
    const b = await llm.chat({ ...prompt, onText: () => {} });
    expect(b.attempts).toBe(2);
    expect(b.text).toBe(a.text);
    // Only answered attempts are billed.
    expect(records).toHaveLength(2);
  });

  it('gives up with a clear kind when every attempt fails', async () => {
    const { llm } = provider({ maxRetries: 2 });
    await faults({ rateLimited: 5 });
    await expect(llm.chat(prompt)).rejects.toMatchObject({
      name: 'LlmError',
      kind: 'rate_limited',
      status: 429,
    });
    await faults({ reset: true, serverError: 5 });
    await expect(llm.chat(prompt)).rejects.toMatchObject({ kind: 'unavailable', status: 500 });
  });

  it('retries a malformed answer, plain and streamed', async () => {
    const { llm } = provider();
    const clean = await llm.chat(prompt);
    await faults({ malformed: 1 });
    const plain = await llm.chat(prompt);
    expect(plain.attempts).toBe(2);
    expect(plain.text).toBe(clean.text);
    await faults({ malformed: 1 });
    const streamed = await llm.chat({ ...prompt, onText: () => {} });
    expect(streamed.attempts).toBe(2);
    expect(streamed.text).toBe(clean.text);
  });

  it('retries a stream cut mid-way and starts the text again', async () => {
    const { llm } = provider();
    const clean = await llm.chat(prompt);
    await faults({ cut: 1 });
    const seen: string[] = [];
    const result = await llm.chat({ ...prompt, onText: (text) => seen.push(text) });
    expect(result.attempts).toBe(2);
    expect(result.text).toBe(clean.text);
    // The first attempt delivered part of the text, then the retry began from the start.
    const restart = seen.findIndex((text, i) => i > 0 && text.length < seen[i - 1]!.length);
    expect(restart).toBeGreaterThan(0);
    await faults({ cut: 1 });
    const plain = await llm.chat(prompt);
    expect(plain.attempts).toBe(2);
    expect(plain.text).toBe(clean.text);
  });

  it('times out a slow answer and retries', async () => {
    const { llm } = provider({ timeoutMs: 1_000 });
    await faults({ slow: 1, slowMs: 3_000 });
    const result = await llm.chat(prompt);
    expect(result.attempts).toBe(2);
    await faults({ slow: 5, slowMs: 3_000 });
    const { llm: impatient } = provider({ timeoutMs: 1_000, maxRetries: 1 });
    await expect(impatient.chat(prompt)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('asks again when the text is not the JSON asked for, and gives up after the configured repairs', async () => {
    const { llm, records } = provider();
    await faults({ nonsense: 1 });
    const result = await llm.structured({ ...prompt, schema: titlesSchema, schemaName: 'titles' });
    expect(result.repairs).toBe(1);
    expect(result.value.titles.length).toBeGreaterThanOrEqual(3);
    expect(records).toHaveLength(2);
    await faults({ nonsense: 3 });
    await expect(
      llm.structured({ ...prompt, schema: titlesSchema, schemaName: 'titles' }),
    ).rejects.toMatchObject({
      kind: 'bad_output',
    });
  });

  it('refuses at once when the endpoint rejects the key (no retry)', async () => {
    const before = sandbox.state.requests;
    const { llm } = provider({ apiKey: 'wrong' });
    await expect(llm.chat(prompt)).rejects.toMatchObject({ kind: 'rejected', status: 401 });
    expect(sandbox.state.requests).toBe(before + 1);
  });

  it('stops when the caller aborts', async () => {
    const { llm } = provider();
    await faults({ slow: 1, slowMs: 5_000 });
    const controller = new AbortController();
    const call = llm.chat({ ...prompt, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('runs at most `concurrency` requests at once', async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        const response = await fetch(input, init);
        await response.clone().arrayBuffer();
        return response;
      } finally {
        inFlight -= 1;
      }
    };
    const { llm } = provider({ concurrency: 2, fetch: counting });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => llm.chat({ ...prompt, task: `test.${i}` })),
    );
    expect(results).toHaveLength(6);
    expect(most).toBe(2);
  });

  it('uses the per-task model override', () => {
    const { llm } = provider({ taskModels: { 'writing.section': 'deepseek-reasoner' } });
    expect(llm.modelFor('writing.section')).toBe('deepseek-reasoner');
    expect(llm.modelFor('writing.title')).toBe(SANDBOX_MODEL);
  });
});
