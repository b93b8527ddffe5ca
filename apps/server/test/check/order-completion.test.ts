// A worker killed between "check done" and "order done" (or an order update that failed) must not
// leave the order 处理中 for good: the job's retry and the reconciliation complete it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { enqueue } from '../../src/jobs/queue.ts';
import { checkReconcileOrdersJob } from '../../src/modules/check/check.jobs.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  newUser,
  payCheckOrder,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildTxt } from './fixtures.ts';

let t: CheckTestApp;
let user: { token: string; userId: string };

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
  user = await newUser(t);
  await t.db.deleteFrom('entitlements').where('user_id', '=', user.userId).execute();
});
afterAll(() => t.close());

/** A delivered check whose order a killed worker left processing; its job back to the queue as a lost lease leaves it. */
async function killedBeforeOrderDone(jobStatus: 'queued' | 'failed') {
  const up = await upload(t, user.token, {
    bytes: buildTxt('城市交通治理与公共政策评估研究。'.repeat(150)),
    name: 'paper.txt',
  });
  await payCheckOrder(t, user.token, up.data.orderId);
  await runCheckJobs(t);
  const check = await t.db
    .selectFrom('checks')
    .select(['order_id', 'job_id', 'status'])
    .where('id', '=', up.data.orderId)
    .executeTakeFirstOrThrow();
  expect(check.status).toBe('done');
  // What the kill leaves: the order still processing, the job not finished.
  await t.db.updateTable('orders').set({ status: 'processing' }).where('id', '=', check.order_id!).execute();
  await t.db
    .updateTable('jobs')
    .set({ status: jobStatus, run_at: new Date(0), locked_by: null, locked_until: null })
    .where('id', '=', check.job_id!)
    .execute();
  return { checkId: up.data.orderId, orderRowId: check.order_id! };
}

async function orderStatus(orderRowId: string) {
  const row = await t.db
    .selectFrom('orders')
    .select('status')
    .where('id', '=', orderRowId)
    .executeTakeFirstOrThrow();
  return row.status;
}

describe('the order of a delivered check', () => {
  it('is completed by the retry of the check job', async () => {
    const { checkId, orderRowId } = await killedBeforeOrderDone('queued');
    await runCheckJobs(t);
    expect(await orderStatus(orderRowId)).toBe('done');
    const list = await call<{ list: { orderId: string; orderStatus: string }[] }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 20 },
      { token: user.token },
    );
    expect(list.data.list.find((item) => item.orderId === checkId)?.orderStatus).toBe('done');
    // Now the user may delete it (3008 before).
    expect((await call(t, '/order/delete', { orderId: orderRowId }, { token: user.token })).code).toBe(0);
  });

  it('is completed by the reconciliation when the job is over', async () => {
    const { orderRowId } = await killedBeforeOrderDone('failed');
    await enqueue(t.db, checkReconcileOrdersJob.name, {});
    const worker = createWorker({
      db: t.db,
      definitions: [checkReconcileOrdersJob],
      services: t.root.services,
    });
    await worker.tick();
    await worker.stop();
    expect(await orderStatus(orderRowId)).toBe('done');
  });
});
