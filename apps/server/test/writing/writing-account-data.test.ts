import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { writingJobDefinitions } from '../../src/modules/writing/writing.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  payCheckOrder,
} from '../check/check-helper.ts';

// AI-writing drafts (topic, requirements, outline, abstract, sections) are personal data: deleting
// the account erases them, stops a paid full text not yet written (refunded in full) and a revision
// waiting for a worker. Another account's drafts stay.

let t: CheckTestApp;
const A = '/aiWriting';

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

async function runJobs() {
  const worker = createWorker({ db: t.db, definitions: writingJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
}

async function student() {
  const { phone, token } = await registerUser(t);
  const userId = (await call<{ id: string }>(t, '/getUserInfo', {}, { token })).data.id;
  await grantFreeCheck(t, userId);
  return { phone, token, userId };
}

/** A paid draft (its full text queued, not yet written). */
async function paidDraft(token: string, title: string) {
  const saved = await call<{ writingId: string }>(
    t,
    `${A}/saveOrder`,
    { area: 'assignment', topic: title, title, targetWords: 3000, requirements: '我的任务书要求' },
    { token },
  );
  const writingId = saved.data.writingId;
  const outline = [
    { name: '研究背景与问题', wordCount: 1500, form: '0', formula: '0', code: '0', picture: '0' },
    { name: '结论与建议', wordCount: 1500, form: '0', formula: '0', code: '0', picture: '0' },
  ];
  expect((await call(t, `${A}/combOutline`, { writingId, outline }, { token })).code).toBe(0);
  const order = await call<{ orderId: string }>(t, `${A}/submitOrder`, { writingId }, { token });
  await payCheckOrder(t, token, order.data.orderId);
  return { writingId, orderId: order.data.orderId };
}

const draftsOf = (userId: string) =>
  t.db.selectFrom('writings').select(['id', 'requirements']).where('user_id', '=', userId).execute();

describe('account deletion and AI-writing drafts', () => {
  it('erases the drafts, refunds the unwritten full text and stops a waiting revision', async () => {
    const me = await student();
    const other = await student();
    // A finished draft with a revision waiting for a worker, and a paid one not yet written.
    const done = await paidDraft(me.token, '社区养老服务研究');
    await runJobs();
    expect((await call<{ status: string }>(t, `${A}/query`, done, { token: me.token })).data.status).toBe(
      'done',
    );
    const path = (await call<{ sections: { path: string }[] }>(t, `${A}/fullText`, done, { token: me.token }))
      .data.sections[0]!.path;
    expect((await call(t, `${A}/updateOrder`, { ...done, path }, { token: me.token })).code).toBe(0);
    const waiting = await paidDraft(me.token, '乡村教育研究');
    const kept = await paidDraft(other.token, '别人的论文');
    expect(await draftsOf(me.userId)).toHaveLength(2);

    t.clock.advance(2 * 60_000);
    const code = await sendCode(t, me.phone, '4', { token: me.token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token: me.token })).code).toBe(
      0,
    );

    expect(await draftsOf(me.userId)).toEqual([]);
    expect(await draftsOf(other.userId)).toHaveLength(1);
    // The full text never written: its job cancelled, its order refunded in full.
    const jobs = await t.db
      .selectFrom('jobs')
      .select(['name', 'status', 'dedupe_key'])
      .where((eb) =>
        eb.or([
          eb('dedupe_key', '=', `writing:${waiting.orderId}`),
          eb('dedupe_key', 'like', `revision:${done.writingId}:%`),
        ]),
      )
      .execute();
    expect(jobs.map((j) => [j.name, j.status]).sort()).toEqual([
      ['writing.full-text', 'cancelled'],
      ['writing.revise-section', 'cancelled'],
    ]);
    const order = await t.db
      .selectFrom('orders')
      .select(['status', 'undelivered_at'])
      .where('id', '=', waiting.orderId)
      .executeTakeFirstOrThrow();
    expect(order.undelivered_at).not.toBeNull();
    const refunds = await t.db
      .selectFrom('refunds')
      .select('reason')
      .where('order_id', '=', waiting.orderId)
      .execute();
    expect(refunds.map((r) => r.reason)).toEqual(['账户已注销，AI写作未完成，自动全额退还款项']);
    // The finished draft's order was delivered: nothing refunded for it.
    expect(
      await t.db.selectFrom('refunds').select('id').where('order_id', '=', done.orderId).execute(),
    ).toEqual([]);
    // The other account's draft is written as usual.
    await runJobs();
    expect((await call<{ status: string }>(t, `${A}/query`, kept, { token: other.token })).data.status).toBe(
      'done',
    );
  });
});
