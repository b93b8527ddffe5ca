import { sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { leavesOf, writingFullTextJob } from '../../src/modules/writing/writing.jobs.ts';
import { findWriting, updateWriting } from '../../src/modules/writing/writing.repo.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
} from '../check/check-helper.ts';

// The full-text job when the LLM fails for good (refund) and after a crash (resume).
let t: CheckTestApp;
const A = '/aiWriting';

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

async function runWritingJobs() {
  const worker = createWorker({ db: t.db, definitions: [writingFullTextJob], services: t.root.services });
  await worker.tick();
  await worker.stop();
}

/** A bound student's writing with its free outline, ordered and paid; answers its ids. */
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
  return { ...user, writingId, orderId: order.data.orderId };
}

async function faults(body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: body });
  expect(res.json().code).toBe(0);
}

describe('the full-text job', () => {
  it('refunds the order in full after its last attempt fails, and says so', async () => {
    const w = await paidWriting('数字乡村治理研究');
    // Paid while the LLM answers 500 to everything: three job attempts, each with its own retries.
    await payCheckOrder(t, w.token, w.orderId);
    await faults({ serverError: 100 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await sql`update jobs set run_at = now() - interval '1 second'
        where name = 'writing.full-text' and status = 'queued'`.execute(t.db);
      await runWritingJobs();
    }
    await faults({ reset: true });
    const view = await call<{ status: string; statusText: string }>(
      t,
      `${A}/query`,
      { writingId: w.writingId },
      { token: w.token },
    );
    expect(view.data).toMatchObject({ status: 'failed', statusText: '全文生成失败，已自动退款' });
    await expect.poll(async () => (await t.orders.getOrder(w.orderId))?.status).toBe('refunded');
    const download = await call(t, `${A}/download`, { writingId: w.writingId }, { token: w.token });
    expect(download.code).not.toBe(0);
  });

  it('continues after the last saved section when it runs again (restart, lost lease)', async () => {
    const w = await paidWriting('社区治理研究');
    await payCheckOrder(t, w.token, w.orderId);
    // As if the job had written two sections and then the process died.
    const before = (await findWriting(t.db, w.writingId))!;
    const kept = [
      { path: '1.1', heading: '研究背景与意义', level: 2, text: '已写好的第一节。', removedCitations: 0 },
      { path: '1.2', heading: '国内外研究现状', level: 2, text: '已写好的第二节。', removedCitations: 0 },
    ];
    await updateWriting(t.db, w.writingId, { sections: kept }, new Date());
    const served = t.app.inject({ method: 'GET', url: '/__dev/llm/faults' });
    const requestsBefore = (await served).json().data.requests as number;
    await runWritingJobs();
    const after = (await findWriting(t.db, w.writingId))!;
    expect(after.status).toBe('done');
    expect(after.sections.slice(0, 2)).toEqual(kept);
    const leaves = leavesOf(before.outline!).length;
    expect(after.sections).toHaveLength(leaves);
    const requestsAfter = (await t.app.inject({ method: 'GET', url: '/__dev/llm/faults' })).json().data
      .requests as number;
    // Only the missing sections were asked for.
    expect(requestsAfter - requestsBefore).toBe(leaves - 2);
  });
});
