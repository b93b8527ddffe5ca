import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckApp, type CheckTestApp, seedLibrary } from '../check/check-helper.ts';
import { startOpenAiEndpoint } from '../llm/openai-endpoint.ts';
import { describeWritingFaults, FAULT_LIBRARY, runFlow } from './fault-flows.ts';

// Every AI-writing flow through every content fault, as an operator runs it: LLM_PROVIDER=openai
// pointed at an OpenAI-compatible endpoint outside the app (the LLM sandbox on its own loopback
// port, real HTTP, json_object, a configured model name) — not the app's in-process sandbox.
let t: CheckTestApp;
let endpoint: Awaited<ReturnType<typeof startOpenAiEndpoint>>;

beforeAll(async () => {
  endpoint = await startOpenAiEndpoint();
  t = await buildCheckApp({ llmEndpoint: endpoint.llmEndpoint });
  await seedLibrary(t, FAULT_LIBRARY);
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

describe('the app on an OpenAI-compatible endpoint', () => {
  it('runs the real adapter against the endpoint: provider openai, no sandbox of its own', async () => {
    const before = endpoint.endpoint.sandbox.state.requests;
    const run = await runFlow(t, 'titles', 'refusal', false);
    expect(run.delivered).toBe(true);
    expect(t.root.services.llm.provider.kind).toBe('openai');
    expect(t.root.services.llm.sandbox).toBeNull();
    // The app has no sandbox of its own; the endpoint answered (twice: the refusal, then clean).
    expect(endpoint.endpoint.sandbox.state.requests - before).toBe(2);
    const usage = await t.db
      .selectFrom('llm_usage')
      .select(['provider', 'model'])
      .where('task', '=', 'writing.title')
      .execute();
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((u) => u.provider === 'openai')).toBe(true);
  }, 120_000);
});

describeWritingFaults(() => t);
