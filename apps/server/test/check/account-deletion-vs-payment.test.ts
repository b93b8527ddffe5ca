import { sql } from '@kyfw/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { ordersJobDefinitions } from '../../src/modules/orders/orders.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { devPay, MINUTE, orderRow, setFaults, spendFreeCheck, startPay } from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  holdRowLock,
  lockWaiters,
  runCheckJobs,
  upload,
  waitUntil,
} from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// Deleting the account while the payment of one of its checks is being accepted. Both take row
// locks on the same records (the account's order, its check, the payment); they take them in one
// order (docs: modules/orders/README.md, "Lock order"), so neither waits for the other in a cycle:
// the deletion answers success, the platform's notification is acknowledged on its first delivery,
// and the money ends where it should: refunded in full either way, since nobody can read the report
// of a deleted account — as a late payment of the order the deletion cancelled, or, when the payment
// came first, by the deletion itself, which stops the queued check (account-deletion-paid-checks).

const usesPostgres = Boolean(process.env.DATABASE_URL);

let t: CheckTestApp;
let seed = 900;

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

/** A new account with a paid check awaiting payment, its WeChat Pay QR code open. */
async function accountWithUnpaidCheck(): Promise<Account & { orderId: string; orderNo: string }> {
  t.clock.advance(MINUTE);
  const { phone, token } = await registerUser(t);
  await spendFreeCheck(t.db, (await call<{ id: string }>(t, '/getUserInfo', {}, { token })).data.id);
  const up = await upload(
    t,
    token,
    { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
    { title: `论文${seed}` },
  );
  expect(up.code).toBe(0);
  expect(up.data.free).toBe(false);
  expect((await startPay(t, token, up.data.orderId, 'wx')).code).toBe(0);
  return { phone, token, orderId: up.data.orderId, orderNo: up.data.orderNo };
}

/** The SMS code of the deletion is fetched first, so the request itself is one transaction. */
async function deletionRequest(account: Account): Promise<() => Promise<{ code: number; message: string }>> {
  t.clock.advance(2 * MINUTE);
  const code = await sendCode(t, account.phone, '4', { token: account.token });
  return () => call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token: account.token });
}

/** The sandbox's notification attempts for the order (what the platform saw). */
function deliveriesOf(orderNo: string) {
  return t.sandbox.deliveries.filter((d) => d.orderNo === orderNo);
}

function checkJobsOf(checkId: string) {
  return t.db
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('name', '=', 'check.run')
    .where(sql<string>`payload->>'checkId'`, '=', checkId)
    .execute();
}

/**
 * Whatever came first, the outcome is one of two consistent ones, never a payment kept for a
 * check that will not run (or whose report nobody can read), nor a check run for money given back.
 */
async function expectConsistent(
  orderId: string,
  orderNo: string,
): Promise<'payment first' | 'deletion first'> {
  // The worker carries out the refund a deletion recorded (a job queued in its transaction).
  const worker = createWorker({ db: t.db, definitions: ordersJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
  const order = await orderRow(t, orderId);
  const refunds = await t.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).execute();
  const check = await t.db
    .selectFrom('checks')
    .select(['status', 'hidden_at'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  // The account is gone either way, and so is the check from its (former) owner's list; the money
  // went back in full at the platform, and the check never runs.
  expect(check.hidden_at).not.toBeNull();
  expect(refunds).toMatchObject([{ status: 'succeeded', amount_fen: order.amount_fen, actor: 'system' }]);
  expect(await t.sandbox.findOrder('wx', orderNo)).toMatchObject({ state: 'REFUND' });
  expect(await runCheckJobs(t)).toEqual([]);
  if (order.status === 'cancelled') {
    // The deletion first: the order was cancelled with the account; the payment that still came
    // is refunded as a late one.
    expect(refunds[0]?.reason).toBe('订单已关闭，自动退还款项');
    expect(check.status).toBe('pending');
    expect(await checkJobsOf(orderId)).toEqual([]);
    return 'deletion first';
  }
  // The payment first: the check was queued, then stopped by the deletion (its job cancelled),
  // and the order refunded in full with the reason in its history.
  expect(order.status).toBe('refunded');
  expect(refunds[0]?.reason).toBe('账户已注销，检测未进行，自动全额退还款项');
  expect(check.status).toBe('failed');
  expect(await checkJobsOf(orderId)).toMatchObject([{ status: 'cancelled' }]);
  return 'payment first';
}

describe('account deletion and payment of one of its checks, interleaved', () => {
  it('either order gives a consistent end state, and both callers get their normal answer', async () => {
    for (const lagMs of [0, 5, 20, 60, -20, -5]) {
      const account = await accountWithUnpaidCheck();
      const deleteAccount = await deletionRequest(account);
      const pay = async () => {
        expect((await devPay(t, account.orderNo, 'wx')).code).toBe(0);
        return t.sandbox.notificationSettled('wx', account.orderNo);
      };
      const later = <T>(ms: number, run: () => Promise<T>) =>
        new Promise((resolve) => setTimeout(resolve, ms)).then(run);
      const [deleted, settled] = await Promise.all([
        lagMs >= 0 ? deleteAccount() : later(-lagMs, deleteAccount),
        lagMs >= 0 ? later(lagMs, pay) : pay(),
      ]);
      expect(deleted).toMatchObject({ code: 0 });
      expect(settled).toBe('acked');
      expect(deliveriesOf(account.orderNo)[0]).toMatchObject({ attempt: 1, outcome: 'acked' });
      await expectConsistent(account.orderId, account.orderNo);
      // The old token is no longer accepted.
      expect((await call(t, '/getUserInfo', {}, { token: account.token })).code).not.toBe(0);
    }
  });
});

// The worst interleaving, forced on a real PostgreSQL server (on PGlite, one session, transactions
// never overlap): the deletion has started and waits on the check's row, and the payment arrives
// meanwhile. A third session holds the check's row until both wait, then lets go.
if (usesPostgres) {
  describe('account deletion and payment at the same moment (PostgreSQL)', () => {
    const waitForLockWaiters = (n: number) =>
      waitUntil(async () => (await lockWaiters(t)) >= n, `${n} sessions waiting on a lock`);

    it('neither waits for the other in a cycle: deletion succeeds, notification acknowledged at once, payment refunded', async () => {
      const account = await accountWithUnpaidCheck();
      const deleteAccount = await deletionRequest(account);

      const holder = await holdRowLock(t, (tx) =>
        sql`select id from checks where id = ${account.orderId} for update`.execute(tx),
      );

      const deleted = deleteAccount();
      await waitForLockWaiters(1);
      const settled = (async () => {
        expect((await devPay(t, account.orderNo, 'wx')).code).toBe(0);
        return t.sandbox.notificationSettled('wx', account.orderNo);
      })();
      await waitForLockWaiters(2);
      await holder.release();

      expect(await deleted).toMatchObject({ code: 0 });
      expect(await settled).toBe('acked');
      expect(deliveriesOf(account.orderNo)).toMatchObject([{ attempt: 1, outcome: 'acked' }]);
      expect(await expectConsistent(account.orderId, account.orderNo)).toBe('deletion first');
    });
  });
}
