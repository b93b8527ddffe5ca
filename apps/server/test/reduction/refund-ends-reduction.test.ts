import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmProvider } from '../../src/providers/llm/index.ts';
import { buildCheckApp, type CheckTestApp, call, newUser, payCheckOrder } from '../check/check-helper.ts';
import { operator, orderRow } from '../orders/orders-helper.ts';
import { PARAGRAPHS } from './fault-flows.ts';
import { R, runRewriteJobs } from './reduction-helper.ts';

// Issue 23 (decision 0034): an operator's full refund of a paid 降重 ends it. Queued: its job
// leaves the queue. Rewriting: it stops before its next paragraph, delivers nothing, and the order
// stays refunded (before, the run went on and its end failed with 1011). The user reads 已退款.

let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

async function paidReduction() {
  const { token } = await newUser(t);
  const sub = await call<{ reductionId: string; orderId: string }>(
    t,
    `${R}/submitContent`,
    { title: '在线教育研究', text: PARAGRAPHS.join('\n') },
    { token },
  );
  expect(sub.code).toBe(0);
  await payCheckOrder(t, token, sub.data.orderId);
  const { order_no: orderNo } = await t.db
    .selectFrom('orders')
    .select('order_no')
    .where('id', '=', sub.data.orderId)
    .executeTakeFirstOrThrow();
  return { token, ...sub.data, orderNo };
}

async function refundAll(orderNo: string) {
  const res = await operator<{ status: string }>(t, '/orders/refund', { orderNo, reason: '用户申请退款' });
  expect(res).toMatchObject({ code: 0, data: { status: 'succeeded' } });
}

async function expectEndedByRefund(r: { token: string; reductionId: string; orderId: string }) {
  const view = await call<{ status: string; statusText: string }>(
    t,
    `${R}/query`,
    { reductionId: r.reductionId },
    { token: r.token },
  );
  expect(view).toMatchObject({ code: 0, data: { status: 'failed', statusText: '已退款' } });
  const list = await call<{ list: { reductionId: string; statusText: string }[] }>(
    t,
    `${R}/getMyWeightReductionOrder`,
    {},
    { token: r.token },
  );
  expect(list.data.list.find((x) => x.reductionId === r.reductionId)?.statusText).toBe('已退款');
  // No deliverable: the result and the download are refused, with the reason, never 1000.
  for (const path of [`${R}/txtWeightResult`, `${R}/download`]) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1${path}`,
      headers: { token: r.token, 'content-type': 'application/json' },
      payload: JSON.stringify({ reductionId: r.reductionId }),
    });
    expect(res.json()).toMatchObject({
      code: ErrorCode.REDUCTION_NOT_READY,
      message: '订单已全额退款，改写已终止',
    });
  }
  const order = await call<{ status: string; statusText: string }>(
    t,
    '/order/detail',
    { orderId: r.orderId },
    { token: r.token },
  );
  expect(order.data).toMatchObject({ status: 'refunded' });
  expect(order.data.statusText).toContain('已退款');
}

describe('a full refund ends a paid 降重', () => {
  it('queued: its job leaves the queue and never runs', async () => {
    const r = await paidReduction();
    await refundAll(r.orderNo);
    const job = await t.db
      .selectFrom('jobs')
      .select('status')
      .where('dedupe_key', '=', `reduction:${r.orderId}`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('cancelled');
    expect(await runRewriteJobs(t)).toEqual([]);
    await expectEndedByRefund(r);
  });

  it('rewriting: it stops before its next paragraph, the order stays refunded, nothing ends in 1000', async () => {
    const r = await paidReduction();
    const provider: LlmProvider = t.root.services.llm.provider;
    const realChat = provider.chat;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const rewriting = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let calls = 0;
    provider.chat = async (request) => {
      calls++;
      entered();
      await gate;
      return realChat.call(provider, request);
    };
    try {
      const run = runRewriteJobs(t);
      await rewriting;
      expect((await orderRow(t, r.orderId)).status).toBe('processing');
      await refundAll(r.orderNo);
      release();
      await run;
    } finally {
      release();
      provider.chat = realChat;
    }
    // The first paragraph's answer came back after the refund; the second was never asked for.
    const asked = calls;
    expect(await runRewriteJobs(t)).toEqual([]);
    expect(calls).toBe(asked);
    await expectEndedByRefund(r);
    expect((await orderRow(t, r.orderId)).status).toBe('refunded');
  });
});
