import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { runInactivitySweep } from '../../src/modules/accounts/inactivity.service.ts';
import { checkJobDefinitions } from '../../src/modules/check/check.jobs.ts';
import type { CheckCpuPool } from '../../src/modules/check/cpu-pool.ts';
import { ordersJobDefinitions } from '../../src/modules/orders/orders.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { MINUTE, operator, orderRow, setFaults, spendFreeCheck } from '../orders/orders-helper.ts';
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

// A paid check that has not delivered its report when its owner deletes the account can never be
// read by anyone: it is stopped (its job cancelled; a run already under way ends without a
// report) and its payment is refunded in full automatically, as for a paid check that failed —
// the order's history says why, and the money goes back at the payment platform. A check that
// delivered its report keeps its payment; an unpaid one has its order cancelled.

const REASON = '账户已注销，检测未进行，自动全额退还款项';

let t: CheckTestApp;
let seed = 1300;

beforeAll(async () => {
  t = await buildCheckApp();
  await importSmallLibrary(t);
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setFaults(t, { reset: true });
});

interface Account {
  phone: string;
  token: string;
}

async function newAccount(): Promise<Account> {
  const { phone, token } = await registerUser(t);
  const info = await call<{ id: string }>(t, '/getUserInfo', {}, { token });
  await spendFreeCheck(t.db, info.data.id);
  return { phone, token };
}

/** Uploads a paper (a paid check awaiting payment). */
async function uploadPaper(account: Account) {
  t.clock.advance(MINUTE);
  const up = await upload(
    t,
    account.token,
    { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
    { title: `论文${seed}` },
  );
  expect(up.code).toBe(0);
  expect(up.data.free).toBe(false);
  return { orderId: up.data.orderId, orderNo: up.data.orderNo, amountFen: up.data.amountFen };
}

/** A paid check of the account, paid through the WeChat Pay sandbox: its check job is queued. */
async function paidCheck(account: Account) {
  const check = await uploadPaper(account);
  await payCheckOrder(t, account.token, check.orderId);
  return check;
}

async function deleteAccount(account: Account) {
  t.clock.advance(2 * MINUTE);
  const code = await sendCode(t, account.phone, '4', { token: account.token });
  return call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token: account.token });
}

/** One worker round over the orders module's jobs (what the in-process worker does at once). */
async function runOrdersJobs(): Promise<void> {
  const worker = createWorker({ db: t.db, definitions: ordersJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
}

/** One worker round over the check module's jobs (check runs, file purges). */
async function runAllCheckJobs(): Promise<string[]> {
  const worker = createWorker({ db: t.db, definitions: checkJobDefinitions, services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

interface OperatorOrder {
  status: string;
  statusText: string;
  autoRefund: boolean;
  refundedFen: number;
  history: { status: string; reason: string }[];
  refunds: { amountFen: number; reason: string; status: string }[];
}

/** The order as the operator API shows it (its owner can no longer log in). */
async function operatorView(orderNo: string): Promise<OperatorOrder> {
  const res = await operator<OperatorOrder>(t, '/orders/detail', { orderNo });
  expect(res.code).toBe(0);
  return res.data;
}

/** Refunded in full automatically, saying why (`status`: the order's status text before ，已自动退款). */
async function expectRefundedForDeletion(
  check: { orderNo: string; amountFen: number },
  why: { reason: string; status: string } = { reason: REASON, status: '账户已注销' },
) {
  const order = await operatorView(check.orderNo);
  expect(order).toMatchObject({
    status: 'refunded',
    statusText: `${why.status}，已自动退款`,
    autoRefund: true,
    refundedFen: check.amountFen,
  });
  expect(order.history.at(-1)).toMatchObject({ status: 'refunded', reason: `已全额退款：${why.reason}` });
  expect(order.refunds).toMatchObject([
    { amountFen: check.amountFen, reason: why.reason, status: 'succeeded' },
  ]);
  // At the payment platform (the sandbox): the whole amount went back, once.
  const atPlatform = await t.sandbox.findOrder('wx', check.orderNo);
  expect(atPlatform?.state).toBe('REFUND');
  expect(atPlatform?.refunds.map((r) => r.amountFen)).toEqual([check.amountFen]);
}

async function checkRow(checkId: string) {
  return t.db
    .selectFrom('checks')
    .select(['status', 'hidden_at', 'file_key'])
    .where('id', '=', checkId)
    .executeTakeFirstOrThrow();
}

async function reportsOf(checkId: string) {
  return t.db.selectFrom('check_reports').select('report_no').where('check_id', '=', checkId).execute();
}

describe('account deletion with paid checks that have not delivered their report', () => {
  it('a queued check is stopped and refunded in full; a delivered check keeps its payment; an unpaid order is cancelled', async () => {
    const account = await newAccount();
    const delivered = await paidCheck(account);
    while ((await runCheckJobs(t)).length > 0);
    expect((await orderRow(t, delivered.orderId)).status).toBe('done');
    const queued = await paidCheck(account);
    const unpaid = await uploadPaper(account);

    expect(await deleteAccount(account)).toMatchObject({ code: 0 });
    await runOrdersJobs();

    await expectRefundedForDeletion(queued);
    // The check never runs: its job was cancelled with the deletion, and no report exists.
    expect(await runCheckJobs(t)).toEqual([]);
    expect(await checkRow(queued.orderId)).toMatchObject({ status: 'failed' });
    expect((await checkRow(queued.orderId)).hidden_at).not.toBeNull();
    expect(await reportsOf(queued.orderId)).toEqual([]);

    // The delivered check's payment stays (its report was there to read).
    expect(await operatorView(delivered.orderNo)).toMatchObject({ status: 'done', refunds: [] });
    expect((await t.sandbox.findOrder('wx', delivered.orderNo))?.state).toBe('SUCCESS');
    // The unpaid one: cancelled with the account, nothing to refund.
    expect(await operatorView(unpaid.orderNo)).toMatchObject({ status: 'cancelled', refunds: [] });

    // Later reconciliations change nothing: refunded once.
    t.clock.advance(MINUTE);
    await runOrdersJobs();
    expect((await operatorView(queued.orderNo)).refunds).toHaveLength(1);
    expect((await t.sandbox.findOrder('wx', queued.orderNo))?.refunds).toHaveLength(1);
  });

  it('a check running when the account is deleted ends without a report, leaves no files, and is refunded in full', async () => {
    const account = await newAccount();
    const running = await paidCheck(account);
    const { file_key: fileKey } = await checkRow(running.orderId);
    const folder = path.join(t.dataDir, 'files', path.dirname(fileKey!));
    expect(existsSync(folder)).toBe(true);

    // The comparison is under way (held until the account is gone).
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
    let run: Promise<string[]>;
    try {
      run = runCheckJobs(t);
      await comparing;
      expect((await checkRow(running.orderId)).status).toBe('running');
      expect((await orderRow(t, running.orderId)).status).toBe('processing');

      expect(await deleteAccount(account)).toMatchObject({ code: 0 });
      release();
      expect(await run).toHaveLength(1);
    } finally {
      release();
      t.check.pool = real;
    }

    // The run ended without a report, and its check is not marked done.
    expect(await checkRow(running.orderId)).toMatchObject({ status: 'failed' });
    expect(await reportsOf(running.orderId)).toEqual([]);
    await runOrdersJobs();
    await expectRefundedForDeletion(running);

    // The purge job queued by the deletion removes the upload; nothing the run wrote stays.
    while ((await runAllCheckJobs()).length > 0);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('an account closed for 12 months without login, with a paid check that has not delivered', () => {
  it('the check is stopped and refunded in full, saying the account was closed (not deleted by its owner); an unpaid order is cancelled', async () => {
    const account = await newAccount();
    const queued = await paidCheck(account);
    const unpaid = await uploadPaper(account);
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'last_login_at'])
      .where('phone_number', '=', account.phone)
      .executeTakeFirstOrThrow();
    const monthsLater = (months: number, days: number) => {
      const d = new Date(user.last_login_at.getTime());
      d.setUTCMonth(d.getUTCMonth() + months);
      return new Date(d.getTime() + days * 24 * 60 * MINUTE);
    };
    const sweep = (now: Date) =>
      runInactivitySweep({
        db: t.db,
        now,
        sms: null,
        logger: { info: () => {}, warn: () => {} },
        digestKey: 'test-digest-key',
        hooks: t.root.services.accounts.hooks,
      });
    // A notice a month before, then the closure (other accounts of this file are swept too).
    expect((await sweep(monthsLater(11, 3))).noticed).toBeGreaterThanOrEqual(1);
    expect((await sweep(monthsLater(12, 4))).closed).toBeGreaterThanOrEqual(1);
    expect(
      (await t.db.selectFrom('users').select('status').where('id', '=', user.id).executeTakeFirstOrThrow())
        .status,
    ).toBe('closed');
    await runOrdersJobs();

    await expectRefundedForDeletion(queued, {
      reason: '账户因长期未登录已关闭，检测未进行，自动全额退还款项',
      status: '账户已关闭',
    });
    expect(await runCheckJobs(t)).toEqual([]);
    expect(await reportsOf(queued.orderId)).toEqual([]);
    const cancelled = await operatorView(unpaid.orderNo);
    expect(cancelled).toMatchObject({ status: 'cancelled', refunds: [] });
    expect(cancelled.history.at(-1)).toMatchObject({
      status: 'cancelled',
      reason: '账号因长期未登录已关闭，订单已取消',
    });
  });
});
