import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckApp, type CheckTestApp, call, newUser, payCheckOrder } from '../check/check-helper.ts';
import { setFaults } from '../orders/orders-helper.ts';
import { PARAGRAPHS } from './fault-flows.ts';
import { R, runRewriteJobs } from './reduction-helper.ts';

// Charged for what is delivered (decision 0027): a reduction whose paragraphs were partly kept is
// refunded the part that paid for them, automatically; the texts say 已自动退款 only when the
// platform confirmed the refund, and say that customer service takes over when it refused — on the
// service page and the order page alike (issue 22).
let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

interface View {
  status: string;
  statusText: string;
  rewritten: number;
  kept: number;
  refund: { amountFen: number; amount: string; state: string; full: boolean; text: string } | null;
  items: {
    before: string;
    outcome: string;
    note: string | null;
    problems: { rule: string; message: string }[];
  }[];
}

async function paidReduction(llmFaults: Record<string, unknown>, payFaults?: Record<string, unknown>) {
  const { token } = await newUser(t);
  const sub = await call<{ reductionId: string; orderId: string; amount: string }>(
    t,
    `${R}/submitContent`,
    { title: '在线教育研究', text: PARAGRAPHS.join('\n') },
    { token },
  );
  expect(sub.code).toBe(0);
  await payCheckOrder(t, token, sub.data.orderId);
  await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
  await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: llmFaults });
  if (payFaults) expect((await setFaults(t, { channel: 'wx', ...payFaults })).code).toBe(0);
  try {
    await runRewriteJobs(t);
  } finally {
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
    await setFaults(t, { reset: true });
  }
  const view = await call<View>(t, `${R}/txtWeightResult`, { reductionId: sub.data.reductionId }, { token });
  const order = await call<{ amountFen: number; refundedFen: number; status: string; statusText: string }>(
    t,
    '/order/detail',
    { orderId: sub.data.orderId },
    { token },
  );
  const list = await call<{ list: View[] }>(t, `${R}/getMyWeightReductionOrder`, {}, { token });
  return { view: view.data, order: order.data, listed: list.data.list[0]! };
}

describe('charged for the paragraphs rewritten', () => {
  it('one paragraph kept (every answer drifted its number): its share is refunded and shown', async () => {
    // The first paragraph's three answers drift a number; the second paragraph is answered cleanly.
    const { view, order, listed } = await paidReduction({ driftNumber: 3, onlyTask: 'reduction.rewrite' });
    expect(view.status).toBe('done');
    expect(view.rewritten).toBe(1);
    expect(view.kept).toBe(1);
    const kept = view.items.find((i) => i.outcome === 'kept')!;
    expect(kept.before).toBe(PARAGRAPHS[0]);
    expect(kept.problems[0]).toMatchObject({ rule: 'number' });
    // The sandbox's drift puts a 1 before the first number of its answer (3.42亿人 → 13.42亿人).
    expect(kept.note).toMatch(/数字被改动（(\S+) → 1\1）/);
    expect(kept.note).toContain('本段不收费');
    // The kept paragraph is about half the characters: about half the price comes back.
    expect(view.refund).toMatchObject({ state: 'refunded', full: false });
    expect(view.refund!.amountFen).toBeGreaterThan(0);
    expect(view.refund!.amountFen).toBeLessThan(order.amountFen);
    expect(view.refund!.text).toBe(`未改写部分 ¥${view.refund!.amount} 已自动退款`);
    expect(order.refundedFen).toBe(view.refund!.amountFen);
    expect(order.status).toBe('done');
    expect(listed.refund?.text).toBe(view.refund!.text);
  });

  it('the platform refuses the partial refund: no 已自动退款 anywhere, customer service takes over', async () => {
    const { view, order } = await paidReduction(
      { driftNumber: 3, onlyTask: 'reduction.rewrite' },
      { refuseRefundNext: 1 },
    );
    expect(view.refund).toMatchObject({ state: 'failed', full: false });
    expect(view.refund!.text).toContain('退款未能自动完成，客服将与您联系处理');
    expect(JSON.stringify(view)).not.toContain('已自动退款');
    expect(order.refundedFen).toBe(0);
  });

  it('nothing rewritten and the platform refuses the refund: service and order page agree', async () => {
    const { view, order, listed } = await paidReduction(
      { refusal: 1000, onlyTask: 'reduction.rewrite' },
      { refuseRefundNext: 1 },
    );
    expect(view.rewritten).toBe(0);
    expect(view.refund).toMatchObject({ state: 'failed', full: true });
    expect(view.refund!.text).toBe(`全部 ¥${view.refund!.amount} 退款未能自动完成，客服将与您联系处理`);
    expect(JSON.stringify(view)).not.toContain('已自动退款');
    expect(JSON.stringify(listed)).not.toContain('已自动退款');
    expect(order.statusText).toContain('退款未能自动完成');
    expect(order.refundedFen).toBe(0);
  });

  it('nothing rewritten: the whole price comes back and both pages say so once it did', async () => {
    const { view, order } = await paidReduction({ english: 1000, onlyTask: 'reduction.rewrite' });
    expect(
      view.items
        .filter((i) => i.outcome === 'kept')
        .every((i) => i.problems.some((p) => p.rule === 'wrong_language')),
    ).toBe(true);
    expect(view.refund).toMatchObject({ state: 'refunded', full: true, amountFen: order.amountFen });
    expect(order.status).toBe('refunded');
    expect(order.statusText).toBe('未能改写任何段落，已自动退款');
  });
});
