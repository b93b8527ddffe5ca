import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckApp, type CheckTestApp } from '../check/check-helper.ts';
import { FAULT_APP_ENV, REDUCTION_FAULTS, REDUCTION_FLOWS, runFaultFlow } from './fault-flows.ts';

// Every 降重/降AIGC flow (pasted text, uploaded .docx, 降AIGC) against a model that misbehaves in each
// way of the sandbox's content faults: once (regenerated, delivered clean, charged in full) and
// always (nothing bad delivered; every paragraph kept with the rule it broke; the whole price
// refunded, and the page says 已自动退款 because the refund succeeded).
let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp({ env: FAULT_APP_ENV });
});
afterAll(async () => {
  await t.close();
});

/** What the always-bad answer of each fault is rejected for (at least one of these rules). */
const EXPECTED_RULES: Record<string, string[]> = {
  inventedCitations: ['added', 'not_a_rewrite', 'too_long'],
  driftNumber: ['number'],
  driftSign: ['number'],
  driftDirection: ['direction', 'negation'],
  driftName: ['name'],
  dropSentence: ['dropped'],
  addClaim: ['added'],
  refusal: ['refusal'],
  empty: ['empty'],
  english: ['wrong_language'],
  preamble: [],
  promptEcho: ['prompt_echo', 'not_a_rewrite'],
  injectionObeyed: ['injection', 'prompt_echo', 'not_a_rewrite'],
  huge: ['truncated', 'too_long'],
  cutOff: ['truncated'],
};

describe.each(REDUCTION_FLOWS)('%s through every content fault', (flow) => {
  it.each(REDUCTION_FAULTS)(
    '%s once: regenerated, delivered clean, charged for what was delivered',
    async (fault) => {
      const run = await runFaultFlow(t, flow, fault, false);
      expect(run.bad).toEqual([]);
      expect(run.chargedForNothing).toBe(false);
      // One bad answer is regenerated: both paragraphs are rewritten, nothing refunded.
      expect(run.delivered).toBe(2);
      expect(run.detail.refund).toBeNull();
      expect(run.detail.orderStatus).toBe('done');
    },
  );

  it.each(REDUCTION_FAULTS)(
    '%s always: nothing bad delivered, kept paragraphs named, nothing charged for them',
    async (fault) => {
      const run = await runFaultFlow(t, flow, fault, true);
      expect(run.bad).toEqual([]);
      expect(run.chargedForNothing).toBe(false);
      expect(run.unnamed).toBe(0);
      if (fault === 'preamble') {
        // A clear preamble and afterword are cut off an intact rewrite: delivered, charged in full.
        expect(run.delivered).toBe(2);
        expect(run.detail.refund).toBeNull();
        return;
      }
      if (run.delivered === 0) {
        expect(run.detail.orderStatus).toBe('refunded');
        expect(run.detail.refundedFen).toBe(run.detail.amountFen);
        expect(run.detail.refund).toMatchObject({ state: 'refunded', full: true });
        expect(run.detail.refund!.text).toContain('已自动退款');
      } else {
        // A fault that only touches one paragraph (no number to drift in the other, …): that one is
        // kept and its part refunded.
        expect(run.detail.refund).toMatchObject({ state: 'refunded', full: false });
        expect(run.detail.refundedFen).toBe(run.detail.refund!.amountFen);
      }
      expect(run.detail.rules.some((r) => EXPECTED_RULES[fault]!.includes(r))).toBe(true);
    },
  );
});
