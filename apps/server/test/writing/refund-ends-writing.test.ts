import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { writingFullTextJob } from '../../src/modules/writing/writing.jobs.ts';
import type { LlmProvider } from '../../src/providers/llm/index.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
} from '../check/check-helper.ts';
import { operator, orderRow } from '../orders/orders-helper.ts';

// Issue 23 (decision 0034): an operator's full refund of a paid AI-writing full text ends it.
// Queued: its job leaves the queue. Being written: it stops before its next section, is never
// marked done and no .docx is delivered. The user reads 已退款; nothing answers 1000.

let t: CheckTestApp;
const A = '/aiWriting';

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

async function runWritingJobs(): Promise<string[]> {
  const worker = createWorker({ db: t.db, definitions: [writingFullTextJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

async function paidWriting(title: string) {
  const user = await newUser(t);
  await grantFreeCheck(t, user.userId);
  const saved = await call<{ writingId: string }>(
    t,
    `${A}/saveOrder`,
    { area: 'assignment', topic: title, title, targetWords: 3000 },
    { token: user.token },
  );
  const writingId = saved.data.writingId;
  expect((await call(t, `${A}/outline`, { writingId }, { token: user.token })).code).toBe(0);
  const order = await call<{ orderId: string }>(t, `${A}/submitOrder`, { writingId }, { token: user.token });
  await payCheckOrder(t, user.token, order.data.orderId);
  const { order_no: orderNo } = await t.db
    .selectFrom('orders')
    .select('order_no')
    .where('id', '=', order.data.orderId)
    .executeTakeFirstOrThrow();
  return { token: user.token, writingId, orderId: order.data.orderId, orderNo };
}

async function refundAll(orderNo: string) {
  const res = await operator<{ status: string }>(t, '/orders/refund', { orderNo, reason: '用户申请退款' });
  expect(res).toMatchObject({ code: 0, data: { status: 'succeeded' } });
}

async function expectEndedByRefund(w: { token: string; writingId: string; orderId: string }) {
  const view = await call<{ status: string; statusText: string }>(
    t,
    `${A}/query`,
    { writingId: w.writingId },
    { token: w.token },
  );
  expect(view).toMatchObject({ code: 0, data: { status: 'failed', statusText: '已退款' } });
  const download = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${A}/download`,
    headers: { token: w.token, 'content-type': 'application/json' },
    payload: JSON.stringify({ writingId: w.writingId }),
  });
  expect(download.json()).toMatchObject({
    code: ErrorCode.WRITING_NOT_READY,
    message: '订单已全额退款，全文生成已终止',
  });
  const order = await call<{ status: string; statusText: string }>(
    t,
    '/order/detail',
    { orderId: w.orderId },
    { token: w.token },
  );
  expect(order.data).toMatchObject({ status: 'refunded' });
  expect(order.data.statusText).toContain('已退款');
}

describe('a full refund ends a paid AI-writing full text', () => {
  it('queued: its job leaves the queue and never runs', async () => {
    const w = await paidWriting('乡村振兴研究');
    await refundAll(w.orderNo);
    const job = await t.db
      .selectFrom('jobs')
      .select('status')
      .where('dedupe_key', '=', `writing:${w.orderId}`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('cancelled');
    expect(await runWritingJobs()).toEqual([]);
    await expectEndedByRefund(w);
  });

  it('being written: it stops before its next section and is never delivered', async () => {
    const w = await paidWriting('城市更新研究');
    const provider: LlmProvider = t.root.services.llm.provider;
    const realChat = provider.chat;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const writing = new Promise<void>((resolve) => {
      entered = resolve;
    });
    provider.chat = async (request) => {
      entered();
      await gate;
      return realChat.call(provider, request);
    };
    try {
      const run = runWritingJobs();
      await writing;
      expect((await orderRow(t, w.orderId)).status).toBe('processing');
      await refundAll(w.orderNo);
      release();
      await run;
    } finally {
      release();
      provider.chat = realChat;
    }
    expect(await runWritingJobs()).toEqual([]);
    await expectEndedByRefund(w);
    const row = await t.db
      .selectFrom('writings')
      .select(['status', 'finished_at'])
      .where('id', '=', w.writingId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', finished_at: null });
    expect((await orderRow(t, w.orderId)).status).toBe('refunded');
  });
});
