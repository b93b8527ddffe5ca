import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckCpuPool } from '../../src/modules/check/cpu-pool.ts';
import { registerUser } from '../accounts/accounts-helper.ts';
import { MINUTE, operator, orderRow, spendFreeCheck } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  payCheckOrder,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// Issue 23 (decision 0034): an operator's full refund of a paid check ends it. A queued check
// leaves the queue and never runs; a running one stops at its next step and keeps no report. The
// user reads 已退款 on the check and on the order, and nothing answers 1000.

let t: CheckTestApp;
let seed = 2300;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
});

afterAll(async () => {
  await t.close();
});

async function paidCheck() {
  const { token } = await registerUser(t);
  const info = await call<{ id: string }>(t, '/getUserInfo', {}, { token });
  await spendFreeCheck(t.db, info.data.id);
  t.clock.advance(MINUTE);
  const up = await upload(t, token, { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' });
  expect(up.code).toBe(0);
  await payCheckOrder(t, token, up.data.orderId);
  return { token, orderId: up.data.orderId, orderNo: up.data.orderNo, amountFen: up.data.amountFen };
}

async function refundAll(orderNo: string) {
  const res = await operator<{ status: string }>(t, '/orders/refund', { orderNo, reason: '用户申请退款' });
  expect(res).toMatchObject({ code: 0, data: { status: 'succeeded' } });
}

/** What the user's pages read: the check's status, the report (not there), and the order. */
async function expectEndedByRefund(check: { token: string; orderId: string }) {
  const status = await call<Record<string, unknown>>(
    t,
    '/freeCheck/checkStatus',
    { orderId: check.orderId },
    { token: check.token },
  );
  expect(status).toMatchObject({
    code: 0,
    data: {
      checkStatus: 'failed',
      checkStatusText: '已退款',
      failureReason: '订单已全额退款，检测已终止',
      canRetry: false,
      reportReady: false,
    },
  });
  const report = await call(t, '/freeCheck/report', { orderId: check.orderId }, { token: check.token });
  expect(report.code).not.toBe(0);
  expect(report.code).not.toBe(ErrorCode.INTERNAL);
  const retry = await call(t, '/freeCheck/retryCheck', { orderId: check.orderId }, { token: check.token });
  expect(retry.code).not.toBe(0);
  expect(retry.code).not.toBe(ErrorCode.INTERNAL);
  expect((await orderRow(t, check.orderId)).status).toBe('refunded');
  const list = await call<{ list: { orderId: string; checkStatusText: string }[] }>(
    t,
    '/freeCheck/orderList',
    {},
    { token: check.token },
  );
  expect(list.data.list.find((c) => c.orderId === check.orderId)?.checkStatusText).toBe('已退款');
  expect(
    await t.db
      .selectFrom('check_reports')
      .select('report_no')
      .where('check_id', '=', check.orderId)
      .execute(),
  ).toEqual([]);
}

describe('a full refund ends a paid check', () => {
  it('a queued check leaves the queue: its job never runs, no report, 已退款 on the check and the order', async () => {
    const check = await paidCheck();
    await refundAll(check.orderNo);
    const job = await t.db
      .selectFrom('jobs')
      .innerJoin('checks', 'checks.job_id', 'jobs.id')
      .select('jobs.status')
      .where('checks.id', '=', check.orderId)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('cancelled');
    expect(await runCheckJobs(t)).toEqual([]);
    await expectEndedByRefund(check);
  });

  it('a running check stops at its next step and keeps no report', async () => {
    const check = await paidCheck();
    const real: CheckCpuPool = t.check.pool;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const comparing = new Promise<void>((resolve) => {
      entered = resolve;
    });
    t.check.pool = {
      ...real,
      compare: async (...args) => {
        entered();
        await gate;
        return real.compare(...args);
      },
    };
    try {
      const run = runCheckJobs(t);
      await comparing;
      expect((await orderRow(t, check.orderId)).status).toBe('processing');
      await refundAll(check.orderNo);
      release();
      await run;
    } finally {
      release();
      t.check.pool = real;
    }
    await expectEndedByRefund(check);
    // Nothing left to run for it.
    expect(await runCheckJobs(t)).toEqual([]);
  });

  it('a delivered check stays delivered; its order reads 已退款', async () => {
    const check = await paidCheck();
    while ((await runCheckJobs(t)).length > 0);
    await refundAll(check.orderNo);
    const status = await call<Record<string, unknown>>(
      t,
      '/freeCheck/checkStatus',
      { orderId: check.orderId },
      { token: check.token },
    );
    expect(status.data).toMatchObject({ checkStatus: 'done', reportReady: true });
    expect((await orderRow(t, check.orderId)).status).toBe('refunded');
  });
});
