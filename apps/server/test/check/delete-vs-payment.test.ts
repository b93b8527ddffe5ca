import { ErrorCode } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  devPay,
  HOUR,
  MINUTE,
  orderRow,
  paymentsOf,
  runJob,
  setFaults,
  startPay,
} from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  checkStatus,
  newUser,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// A check deleted while its order cannot be cancelled any more (expired) can still be paid: the
// platform reports a payment made in time, late. Money is never kept for a check that will not
// run: the delete and the payment lock the same check row, so exactly one wins — the payment
// (the delete is refused with 4010 and the check runs) or the delete (the payment is refunded
// automatically and no check job runs).

const REFUND_REASON = '查重记录已删除，无法进行检测，自动退还款项';
const PAID_WHILE_DELETING = '订单已支付，检测即将开始，完成后才能删除';

let t: CheckTestApp;
let alice: { token: string; userId: string };
let seed = 300;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
  alice = await newUser(t);
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setFaults(t, { reset: true });
});

/** A paid check awaiting payment, with its WeChat Pay code open (what the payment dialog shows). */
async function unpaidCheck(): Promise<{ orderId: string; orderNo: string; amountFen: number }> {
  t.clock.advance(MINUTE);
  const res = await upload(
    t,
    alice.token,
    { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
    { title: `论文${seed}` },
  );
  expect(res.code).toBe(0);
  expect(res.data.free).toBe(false);
  expect((await startPay(t, alice.token, res.data.orderId, 'wx')).code).toBe(0);
  return { orderId: res.data.orderId, orderNo: res.data.orderNo, amountFen: res.data.amountFen };
}

/**
 * The customer pays in time, but we do not learn it before the expiry job runs (the notification
 * is held back or lost, and closing the code at the platform fails): the order expires.
 */
async function paidInTimeThenExpired(orderId: string, orderNo: string, notification: 'late' | 'lost') {
  await setFaults(t, { channel: 'wx', ...(notification === 'late' ? { delayMs: 2_500 } : { dropNext: 1 }) });
  expect((await devPay(t, orderNo, 'wx')).code).toBe(0);
  t.clock.advance(2 * HOUR + MINUTE);
  await setFaults(t, { channel: 'wx', failApiNext: 1 });
  await runJob(t, 'orders.expire');
  expect((await orderRow(t, orderId)).status).toBe('expired');
}

function deleteCheck(orderId: string) {
  return call(t, '/freeCheck/deleteOrder', { orderId }, { token: alice.token });
}

async function orderDetail(orderId: string) {
  const detail = await call<{
    status: string;
    refundedAmount: string;
    history: { status: string; reason: string }[];
    payments: { status: string; amountFen: number }[];
    refunds: { amountFen: number; reason: string; status: string }[];
  }>(t, '/order/detail', { orderId }, { token: alice.token });
  expect(detail.code).toBe(0);
  return detail.data;
}

async function checkRow(id: string) {
  return t.db
    .selectFrom('checks')
    .select(['status', 'job_id', 'hidden_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function checkJobsOf(id: string) {
  return t.db
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('name', '=', 'check.run')
    .where(sql<string>`payload->>'checkId'`, '=', id)
    .execute();
}

/** The refund is complete: order refunded (who and why in its history), money back at the platform. */
async function expectRefunded(orderId: string, orderNo: string, amountFen: number) {
  const detail = await orderDetail(orderId);
  expect(detail.status).toBe('refunded');
  expect(detail.history.map((h) => h.status)).toEqual(['pending_payment', 'expired', 'paid', 'refunded']);
  expect(detail.history.at(-1)).toMatchObject({ status: 'refunded', reason: `已全额退款：${REFUND_REASON}` });
  expect(detail.payments).toMatchObject([{ status: 'accepted', amountFen }]);
  expect(detail.refunds).toMatchObject([{ amountFen, reason: REFUND_REASON, status: 'succeeded' }]);
  const last = await t.db
    .selectFrom('order_transitions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(last).toMatchObject({ from_status: 'paid', to_status: 'refunded', actor: 'system' });
  const refunds = await t.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute();
  expect(refunds).toMatchObject([{ actor: 'system', status: 'succeeded', amount_fen: amountFen }]);
  // At the platform, and on the payment records page.
  expect(await t.sandbox.findOrder('wx', orderNo)).toMatchObject({ state: 'REFUND' });
  const records = await call<{ list: { orderId: string; refundedFen: number; amountFen: number }[] }>(
    t,
    '/payment/records',
    { page: 1, pageSize: 50 },
    { token: alice.token },
  );
  expect(records.data.list.filter((r) => r.orderId === orderId)).toMatchObject([
    { amountFen, refundedFen: amountFen },
  ]);
}

/** No check runs for it: no job, the check stays deleted and pending. */
async function expectNoCheckRun(orderId: string) {
  expect(await checkJobsOf(orderId)).toEqual([]);
  expect(await runCheckJobs(t)).toEqual([]);
  const check = await checkRow(orderId);
  expect(check).toMatchObject({ status: 'pending', job_id: null });
  expect(check.hidden_at).not.toBeNull();
  expect((await checkStatus(t, alice.token, orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
}

describe('deleting a check whose order expired, then a payment made in time is reported', () => {
  it('a late payment notification: the payment is accepted and refunded at once, no check runs', async () => {
    const { orderId, orderNo, amountFen } = await unpaidCheck();
    await paidInTimeThenExpired(orderId, orderNo, 'late');

    // The order expired, so there is nothing to cancel: the check is deleted as it is.
    const del = await deleteCheck(orderId);
    expect(del).toMatchObject({ code: 0, message: '删除成功' });
    // (The notification is still held back by the platform; on a very slow machine it would not be.)
    expect((await t.sandbox.findOrder('wx', orderNo))?.notification?.status).toBe('pending');

    // The platform's notification arrives now, for a payment made before the order's expiry.
    expect(await t.sandbox.notificationSettled('wx', orderNo)).toBe('acked');
    await expectRefunded(orderId, orderNo, amountFen);
    await expectNoCheckRun(orderId);
    // The list no longer shows it; a second delete finds nothing.
    expect((await deleteCheck(orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });

  it('the reconciliation finds the payment: refunded the same way', async () => {
    const { orderId, orderNo, amountFen } = await unpaidCheck();
    await paidInTimeThenExpired(orderId, orderNo, 'lost');
    expect((await deleteCheck(orderId)).code).toBe(0);

    t.clock.advance(MINUTE);
    const summary = await runJob(t, 'orders.reconcile');
    expect(summary.paid).toBeGreaterThanOrEqual(1);
    await expectRefunded(orderId, orderNo, amountFen);
    await expectNoCheckRun(orderId);
    // Later runs change nothing (the handler is not called again, nothing is refunded twice).
    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect((await orderDetail(orderId)).refunds).toHaveLength(1);
    expect(await paymentsOf(t, orderId)).toHaveLength(1);
  });
});

describe('a payment accepted before the delete wins', () => {
  it('paid at the platform while the user deletes: the cancel finds the payment, the delete is refused and the check runs', async () => {
    const { orderId, orderNo } = await unpaidCheck();
    await setFaults(t, { channel: 'wx', dropNext: 1 });
    expect((await devPay(t, orderNo, 'wx')).code).toBe(0);

    // Deleting cancels the unpaid order, whose QR code the platform reports paid: payment accepted.
    expect(await deleteCheck(orderId)).toMatchObject({
      code: ErrorCode.CHECK_IN_PROGRESS,
      message: PAID_WHILE_DELETING,
    });
    expect((await orderRow(t, orderId)).status).toBe('paid');
    expect(await checkRow(orderId)).toMatchObject({ status: 'queued', hidden_at: null });
    expect(await runCheckJobs(t)).toHaveLength(1);
    expect((await checkStatus(t, alice.token, orderId)).data).toMatchObject({ checkStatus: 'done' });
    expect((await orderRow(t, orderId)).status).toBe('done');
  });

  it('paid but its check not queued yet (the start is retried): the delete is refused, then the check runs', async () => {
    const { orderId, orderNo } = await unpaidCheck();
    // Starting the check fails once (the payment stands; the reconciliation retries the start).
    const off = t.root.services.orders.onPaid('check', async () => {
      throw new Error('simulated failure of the start');
    });
    try {
      expect((await devPay(t, orderNo, 'wx')).code).toBe(0);
      expect(await t.sandbox.notificationSettled('wx', orderNo)).toBe('acked');
    } finally {
      off();
    }
    expect((await orderRow(t, orderId)).status).toBe('paid');
    expect(await checkRow(orderId)).toMatchObject({ status: 'pending', job_id: null });

    const list = await call<{ list: { orderId: string; actions: { delete: boolean } }[] }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 50 },
      { token: alice.token },
    );
    expect(list.data.list.find((c) => c.orderId === orderId)?.actions.delete).toBe(false);
    expect(await deleteCheck(orderId)).toMatchObject({
      code: ErrorCode.CHECK_IN_PROGRESS,
      message: PAID_WHILE_DELETING,
    });
    expect((await checkRow(orderId)).hidden_at).toBeNull();

    t.clock.advance(MINUTE);
    expect((await runJob(t, 'orders.reconcile')).hooks).toBeGreaterThanOrEqual(1);
    expect((await checkRow(orderId)).status).toBe('queued');
    expect(await runCheckJobs(t)).toHaveLength(1);
    expect((await orderRow(t, orderId)).status).toBe('done');
    expect(await t.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute()).toEqual(
      [],
    );
  });
});

describe('delete and payment at the same time', () => {
  it('exactly one wins: refused and run, or deleted and refunded — never paid for nothing', async () => {
    // The reconciliation starts a little later each round, so the two meet at different points.
    for (const lagMs of [0, 10, 25, 50]) {
      const { orderId, orderNo, amountFen } = await unpaidCheck();
      await paidInTimeThenExpired(orderId, orderNo, 'lost');
      t.clock.advance(MINUTE);
      const [del] = await Promise.all([
        deleteCheck(orderId),
        new Promise((resolve) => setTimeout(resolve, lagMs)).then(() => runJob(t, 'orders.reconcile')),
      ]);
      if (del.code === 0) {
        await expectRefunded(orderId, orderNo, amountFen);
        await expectNoCheckRun(orderId);
      } else {
        // Refused whether the payment was in before the delete looked (the check already queued)
        // or came in while it was deleting.
        expect(del.code).toBe(ErrorCode.CHECK_IN_PROGRESS);
        expect([PAID_WHILE_DELETING, '检测进行中，完成后才能删除']).toContain(del.message);
        expect(await checkRow(orderId)).toMatchObject({ status: 'queued', hidden_at: null });
        expect(await runCheckJobs(t)).toHaveLength(1);
        expect((await orderRow(t, orderId)).status).toBe('done');
        expect(
          await t.db.selectFrom('refunds').select('id').where('order_id', '=', orderId).execute(),
        ).toEqual([]);
      }
    }
  });
});
