import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckApp, type CheckTestApp } from '../check/check-helper.ts';
import { startOpenAiEndpoint } from '../llm/openai-endpoint.ts';
import { describeReductionFaults, FAULT_APP_ENV, runFaultFlow } from './fault-flows.ts';

// Every 降重/降AIGC flow through every content fault, as an operator runs it: LLM_PROVIDER=openai
// pointed at an OpenAI-compatible endpoint outside the app (the LLM sandbox on its own loopback
// port, real HTTP, a configured model name) — not the app's in-process sandbox.
let t: CheckTestApp;
let endpoint: Awaited<ReturnType<typeof startOpenAiEndpoint>>;

beforeAll(async () => {
  endpoint = await startOpenAiEndpoint();
  t = await buildCheckApp({ env: FAULT_APP_ENV, llmEndpoint: endpoint.llmEndpoint });
});
afterAll(async () => {
  await t.close();
  await endpoint.close();
});

describe('the app on an OpenAI-compatible endpoint', () => {
  it('rewrites through the endpoint: provider openai, every answer asked of it', async () => {
    const before = endpoint.endpoint.sandbox.state.requests;
    const run = await runFaultFlow(t, 'text', 'driftNumber', false);
    expect(run.delivered).toBe(2);
    expect(t.root.services.llm.provider.kind).toBe('openai');
    // Two paragraphs, the first answer of the first drifted and regenerated: three answers.
    expect(endpoint.endpoint.sandbox.state.requests - before).toBe(3);
    const rows = await t.db
      .selectFrom('llm_usage')
      .select('provider')
      .where('task', '=', 'reduction.rewrite')
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.provider === 'openai')).toBe(true);
  }, 120_000);
});

describeReductionFaults(() => t);
