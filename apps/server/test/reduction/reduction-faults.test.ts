import { afterAll, beforeAll } from 'vitest';
import { buildCheckApp, type CheckTestApp } from '../check/check-helper.ts';
import { describeReductionFaults, FAULT_APP_ENV } from './fault-flows.ts';

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

// The same flows against an OpenAI-compatible endpoint outside the app: reduction-faults-endpoint.test.ts.
describeReductionFaults(() => t);
