import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { SANDBOX_MARK, usageOfOrder } from '../../../src/providers/llm/index.ts';
import { createInjectFetch } from '../../../src/providers/payment/inject-fetch.ts';
import { buildTestApp, type TestApp } from '../../helper.ts';

let t: TestApp;

beforeAll(async () => {
  const app: { current?: TestApp['app'] } = {};
  t = await buildTestApp({
    providers: { llmFetch: createInjectFetch(() => app.current!) },
    env: { LLM_PRICE_INPUT: '2', LLM_PRICE_OUTPUT: '8' },
  });
  app.current = t.app;
});
afterAll(async () => {
  await t.close();
});

describe('the LLM sandbox in the embedded default', () => {
  it('is the default provider, speaks Chat Completions at /__sandbox/llm/v1 and records usage per order', async () => {
    const llm = t.root.services.llm;
    expect(llm.provider.kind).toBe('sandbox');
    expect(llm.sandbox).not.toBeNull();
    const result = await llm.provider.chat({
      task: 'test.plain',
      orderNo: 'W-TEST-1',
      messages: [{ role: 'user', content: '题目：数字乡村建设\n请写约120字。' }],
    });
    expect(result.text.startsWith(SANDBOX_MARK)).toBe(true);
    const usage = await usageOfOrder(t.db, 'W-TEST-1');
    expect(usage).toEqual({
      calls: 1,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      costMicroYuan: result.usage.promptTokens * 2 + result.usage.completionTokens * 8,
    });
    const models = await t.app.inject({ method: 'GET', url: '/__sandbox/llm/v1/models' });
    expect(models.json().data[0].id).toBe('kyfw-sandbox');
  });

  it('sets and reads faults at /__dev/llm/faults, and refuses bad input with a Chinese message', async () => {
    const set = await t.app.inject({
      method: 'POST',
      url: '/__dev/llm/faults',
      payload: { serverError: 1, cut: 2 },
    });
    expect(set.json()).toMatchObject({
      code: 0,
      data: { faults: { serverError: 1, cut: 2, rateLimited: 0 } },
    });
    const reset = await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
    expect(reset.json().data.faults).toMatchObject({ serverError: 0, cut: 0 });
    const bad = await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { cut: -1 } });
    expect(bad.json().code).not.toBe(0);
    expect(bad.json().message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('LLM configuration', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
  };

  it('requires LLM_BASE_URL and LLM_MODEL for a real endpoint', () => {
    const problems = problemsOf({ LLM_PROVIDER: 'openai' });
    expect(problems).toEqual([
      expect.stringMatching(/^LLM_BASE_URL: required/),
      expect.stringMatching(/^LLM_MODEL: required/),
    ]);
    expect(problemsOf({ PROVIDERS: 'real' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^LLM_BASE_URL: /),
        expect.stringMatching(/^LLM_MODEL: /),
      ]),
    );
    const config = loadConfig({
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: 'https://api.deepseek.com/v1/',
      LLM_MODEL: 'deepseek-chat',
      LLM_TASK_MODELS: 'writing.section=deepseek-reasoner',
    });
    expect(config.llm).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://api.deepseek.com/v1',
      model: 'deepseek-chat',
      taskModels: { 'writing.section': 'deepseek-reasoner' },
    });
    expect(problemsOf({ LLM_TASK_MODELS: 'no pairs here' })).toEqual([
      expect.stringMatching(/^LLM_TASK_MODELS: /),
    ]);
    expect(problemsOf({ LLM_BASE_URL: 'ftp://x' })).toEqual([expect.stringMatching(/^LLM_BASE_URL: /)]);
  });

  it('refuses a production start on the LLM sandbox', () => {
    const problems = problemsOf({ NODE_ENV: 'production', PROVIDERS: 'real', LLM_PROVIDER: 'sandbox' });
    expect(problems).toContain(
      'LLM_PROVIDER: the LLM sandbox (template text marked 【沙箱示例】) is refused with NODE_ENV=production',
    );
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^PROVIDERS: .*sandbox/)]);
  });
});
