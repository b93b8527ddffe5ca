import { ErrorCode } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  devPay,
  HOUR,
  MINUTE,
  operator,
  orderRow,
  runJob,
  setFaults,
  startPay,
} from '../orders/orders-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
import {
  buildCheckApp,
  type CheckStatus,
  type CheckTestApp,
  call,
  checkStatus,
  grantFreeCheck,
  newUser,
  payCheckOrder,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildTxt, libraryText } from './fixtures.ts';

// A student who paid and got no report gets the money back, without asking: a paid check whose
// job fails for good (its retries used up, or a failure no retry can help) is refunded in full
// through the payment platform, its order ends 已退款 with the reason in its history, and order and
// check say 检测失败，已自动退款. A free check that fails gives the free check back. An order whose
// money is being given back automatically (this, or a payment accepted for a check deleted
// meanwhile) is never offered for an invoice, and an invoice request naming it is refused.

const FAILED_REFUNDED = '检测失败，已自动退款';
const FAILED_REFUNDING = '检测失败，正在自动退款';
const REFUND_REASON = '检测未能完成，自动全额退还款项';

let t: CheckTestApp;
let alice: { token: string; userId: string };
let seed = 500;

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

interface OrderDetail {
  status: string;
  statusText: string;
  autoRefund: boolean;
  refundedFen: number;
  history: { status: string; statusText: string; reason: string }[];
  refunds: { amountFen: number; reason: string; status: string }[];
}

function orderDetail(orderId: string) {
  return call<OrderDetail>(t, '/order/detail', { orderId }, { token: alice.token });
}

/** A paid check of alice, paid through the WeChat Pay sandbox; its check job is queued. */
async function paidCheck(): Promise<{ orderId: string; orderNo: string; amountFen: number }> {
  t.clock.advance(MINUTE);
  const up = await upload(
    t,
    alice.token,
    { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
    { title: `论文${seed}` },
  );
  expect(up.data).toMatchObject({ free: false });
  await payCheckOrder(t, alice.token, up.data.orderId);
  expect((await checkStatus(t, alice.token, up.data.orderId)).data.checkStatus).toBe('queued');
  return { orderId: up.data.orderId, orderNo: up.data.orderNo, amountFen: up.data.amountFen };
}

async function storedKeys(checkId: string) {
  return t.db
    .selectFrom('checks')
    .select(['file_key', 'text_key'])
    .where('id', '=', checkId)
    .executeTakeFirstOrThrow();
}

/** The upload and its text vanish from the disk: no attempt can succeed (fails at once). */
async function loseFiles(checkId: string) {
  const keys = await storedKeys(checkId);
  await t.check.storage.delete(keys.text_key!);
  await t.check.storage.delete(keys.file_key!);
}

/** The job's next attempt is due now (the backoff between attempts has passed). */
async function retryDueNow(checkId: string) {
  await sql`update jobs set run_at = now() - interval '1 second'
    where name = 'check.run' and payload->>'checkId' = ${checkId} and status = 'queued'`.execute(t.db);
}

async function listedCheck(orderId: string) {
  const list = await call<{
    list: {
      orderId: string;
      checkStatus: string;
      checkStatusText: string;
      orderStatus: string | null;
      actions: { retry: boolean; delete: boolean };
    }[];
  }>(t, '/freeCheck/orderList', { page: 1, pageSize: 50 }, { token: alice.token });
  return list.data.list.find((c) => c.orderId === orderId);
}

async function paymentRecord(orderId: string) {
  const records = await call<{ list: { orderId: string; amountFen: number; refundedFen: number }[] }>(
    t,
    '/payment/records',
    { page: 1, pageSize: 50 },
    { token: alice.token },
  );
  return records.data.list.find((r) => r.orderId === orderId);
}

async function invoiceableOrderIds(): Promise<string[]> {
  const res = await call<{ orderId: string }[]>(t, '/invoice/orders', {}, { token: alice.token });
  expect(res.code).toBe(0);
  return res.data.map((o) => o.orderId);
}

function requestInvoice(orderIds: string[]) {
  return call<{ invoiceNo: string }>(
    t,
    '/invoice/create',
    { orderIds, titleType: 'personal', title: '张三', email: 'zhangsan@example.com' },
    { token: alice.token },
  );
}

/** The refund is done: order refunded (system, with the reason), money back at the platform. */
async function expectRefundedInFull(orderId: string, orderNo: string, amountFen: number) {
  const detail = (await orderDetail(orderId)).data;
  expect(detail).toMatchObject({
    status: 'refunded',
    statusText: FAILED_REFUNDED,
    autoRefund: true,
    refundedFen: amountFen,
  });
  expect(detail.history.at(-1)).toMatchObject({
    status: 'refunded',
    reason: `已全额退款：${REFUND_REASON}`,
  });
  expect(detail.refunds).toMatchObject([{ amountFen, reason: REFUND_REASON, status: 'succeeded' }]);
  const last = await t.db
    .selectFrom('order_transitions')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(last).toMatchObject({ to_status: 'refunded', actor: 'system' });
  // At the payment platform (the sandbox): the whole amount went back.
  const atPlatform = await t.sandbox.findOrder('wx', orderNo);
  expect(atPlatform?.state).toBe('REFUND');
  expect(atPlatform?.refunds.map((r) => r.amountFen)).toEqual([amountFen]);
  expect(await paymentRecord(orderId)).toMatchObject({ amountFen, refundedFen: amountFen });
}

describe('a paid check that fails for good', () => {
  it('every attempt fails: after the last one the payment is refunded automatically, and it cannot be run again for free', async () => {
    const { orderId, orderNo, amountFen } = await paidCheck();
    // The stored text is damaged: every attempt fails (a retryable error), three attempts in all.
    const keys = await storedKeys(orderId);
    await t.check.storage.put(keys.text_key!, 'not json');

    expect(await runCheckJobs(t)).toHaveLength(1);
    let status = (await checkStatus(t, alice.token, orderId)).data;
    expect(status).toMatchObject({ checkStatus: 'queued', canRetry: false });
    expect((await orderRow(t, orderId)).status).toBe('processing');
    for (let attempt = 2; attempt <= 3; attempt++) {
      await retryDueNow(orderId);
      expect(await runCheckJobs(t)).toHaveLength(1);
    }

    status = (await checkStatus(t, alice.token, orderId)).data;
    expect(status).toMatchObject({
      checkStatus: 'failed',
      checkStatusText: FAILED_REFUNDED,
      canRetry: false,
      reportReady: false,
    });
    expect(status.failureReason).toContain('已为您自动全额退款');
    await expectRefundedInFull(orderId, orderNo, amountFen);

    // The lists say the same; the money is not kept, so the check is not run again for free.
    expect(await listedCheck(orderId)).toMatchObject({
      checkStatus: 'failed',
      checkStatusText: FAILED_REFUNDED,
      orderStatus: 'refunded',
      actions: { retry: false, delete: true },
    });
    const orders = await call<{ list: { orderId: string; statusText: string }[] }>(
      t,
      '/order/list',
      { page: 1, pageSize: 50 },
      { token: alice.token },
    );
    expect(orders.data.list.find((o) => o.orderId === orderId)?.statusText).toBe(FAILED_REFUNDED);
    expect(await call(t, '/freeCheck/retryCheck', { orderId }, { token: alice.token })).toMatchObject({
      code: ErrorCode.CHECK_NOT_RETRYABLE,
      message: '该检测失败后已自动全额退款，不能重新检测；如需检测，请重新上传论文',
    });
    expect(await invoiceableOrderIds()).not.toContain(orderId);

    // Deleting the check afterwards keeps every money record.
    expect(await call(t, '/freeCheck/deleteOrder', { orderId }, { token: alice.token })).toMatchObject({
      code: 0,
    });
    expect(await listedCheck(orderId)).toBeUndefined();
    await expectRefundedInFull(orderId, orderNo, amountFen);
    // Later reconciliations change nothing: refunded once.
    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect((await orderDetail(orderId)).data.refunds).toHaveLength(1);
    expect((await t.sandbox.findOrder('wx', orderNo))?.refunds).toHaveLength(1);
  });

  it('the platform cannot take the refund at once: 正在自动退款, no invoice; deleting the check meanwhile loses nothing; the reconciliation finishes it', async () => {
    const { orderId, orderNo, amountFen } = await paidCheck();
    await loseFiles(orderId);
    // The platform's refund API is down for the next call (the automatic refund).
    await setFaults(t, { channel: 'wx', failApiNext: 1 });
    expect(await runCheckJobs(t)).toHaveLength(1);

    expect((await checkStatus(t, alice.token, orderId)).data).toMatchObject({
      checkStatus: 'failed',
      checkStatusText: FAILED_REFUNDING,
      canRetry: false,
    });
    const detail = (await orderDetail(orderId)).data;
    expect(detail).toMatchObject({ status: 'processing', statusText: FAILED_REFUNDING, autoRefund: true });
    expect(detail.refunds).toMatchObject([{ amountFen, reason: REFUND_REASON, status: 'pending' }]);

    // Not invoiceable while its money is on the way back, and a request naming it is refused.
    expect(await invoiceableOrderIds()).not.toContain(orderId);
    expect(await requestInvoice([orderId])).toMatchObject({
      code: ErrorCode.INVOICE_ORDER_INVALID,
      message: `订单 ${orderNo} 的服务未能完成，款项已自动退还（或正在退还），不能开具发票`,
    });

    expect(await call(t, '/freeCheck/deleteOrder', { orderId }, { token: alice.token })).toMatchObject({
      code: 0,
    });
    t.clock.advance(MINUTE);
    expect((await runJob(t, 'orders.reconcile')).refunds).toBeGreaterThanOrEqual(1);
    await expectRefundedInFull(orderId, orderNo, amountFen);
    expect((await requestInvoice([orderId])).code).toBe(ErrorCode.INVOICE_ORDER_INVALID);
  });
});

describe('the payment platform refuses the automatic refund', () => {
  it('order and check say the refund could not be made and that customer service will be in touch, never 正在自动退款; the operator refunds by hand', async () => {
    const REFUSED = '检测失败，退款未能自动完成，客服将与您联系处理';
    const { orderId, orderNo, amountFen } = await paidCheck();
    await loseFiles(orderId);
    // The platform refuses the refund for good (the merchant's balance cannot cover it).
    await setFaults(t, { channel: 'wx', refuseRefundNext: 1 });
    expect(await runCheckJobs(t)).toHaveLength(1);

    const status = (await checkStatus(t, alice.token, orderId)).data;
    expect(status).toMatchObject({ checkStatus: 'failed', checkStatusText: REFUSED, canRetry: false });
    expect(status.failureReason).toBe(
      '检测未能完成，款项未能自动退回，客服将与您联系处理。如需检测，请重新上传论文。',
    );
    const detail = (await orderDetail(orderId)).data;
    expect(detail).toMatchObject({ status: 'processing', statusText: REFUSED, autoRefund: true });
    expect(detail.refunds).toMatchObject([{ amountFen, reason: REFUND_REASON, status: 'failed' }]);
    const orders = await call<{ list: { orderId: string; statusText: string }[] }>(
      t,
      '/order/list',
      { page: 1, pageSize: 50 },
      { token: alice.token },
    );
    expect(orders.data.list.find((o) => o.orderId === orderId)?.statusText).toBe(REFUSED);
    expect(await listedCheck(orderId)).toMatchObject({ checkStatusText: REFUSED, orderStatus: 'processing' });
    // Nothing went back at the platform; the payment waits for an operator, and no later
    // reconciliation changes what the user reads.
    expect(await t.sandbox.findOrder('wx', orderNo)).toMatchObject({ state: 'SUCCESS', refunds: [] });
    const flagged = await operator<{ orderNo: string; flagReason: string }[]>(t, '/payments/flagged', {});
    expect(flagged.data.find((p) => p.orderNo === orderNo)?.flagReason).toContain('需人工处理');
    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect((await orderDetail(orderId)).data.statusText).toBe(REFUSED);
    expect(await invoiceableOrderIds()).not.toContain(orderId);

    // The operator gives the money back by hand: refunded, and it says so (not 自动).
    const refund = await operator(t, '/orders/refund', { orderNo, reason: '人工退款：检测未能完成' });
    expect(refund.code).toBe(0);
    expect((await orderDetail(orderId)).data).toMatchObject({
      status: 'refunded',
      statusText: '检测失败，已退款',
      refundedFen: amountFen,
    });
    expect((await t.sandbox.findOrder('wx', orderNo))?.refunds.map((r) => r.amountFen)).toEqual([amountFen]);
    const after = (await checkStatus(t, alice.token, orderId)).data;
    expect(after).toMatchObject({ checkStatusText: '检测失败，已退款' });
    expect(after.failureReason).toBe('检测未能完成，款项已全额退回。如需检测，请重新上传论文。');
  });
});

describe('a free check that fails', () => {
  it('gives the free check back: offered again, and usable for a retry', async () => {
    const bob = await newUser(t);
    await grantFreeCheck(t, bob.userId);
    const up = await upload(t, bob.token, { bytes: buildTxt(libraryText(seed++, 2_000)), name: '免费.txt' });
    expect(up.data.free).toBe(true);
    const orderId = up.data.orderId;
    expect((await call(t, '/freeCheck/payFee', { orderId }, { token: bob.token })).code).toBe(0);
    const goods = async () =>
      (
        await call<{ goodsId: string; freeAvailable: boolean }[]>(
          t,
          '/freeCheck/goodsList',
          {},
          { token: bob.token },
        )
      ).data.find((g) => g.goodsId === 'check_undergrad');
    expect((await goods())?.freeAvailable).toBe(false);

    const keys = await storedKeys(orderId);
    await loseFiles(orderId);
    expect(await runCheckJobs(t)).toHaveLength(1);
    const failed = await call<CheckStatus>(t, '/freeCheck/checkStatus', { orderId }, { token: bob.token });
    expect(failed.data).toMatchObject({ checkStatus: 'failed', checkStatusText: '检测失败', canRetry: true });
    expect(failed.data.failureReason).toContain('免费查重次数已退回');
    expect((await goods())?.freeAvailable).toBe(true);
    // No money, no order, nothing refunded.
    expect(await t.db.selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()).toEqual(
      [],
    );

    // The text is back (restored from a backup): the retry uses the free check again and runs.
    await t.check.storage.put(
      keys.text_key!,
      JSON.stringify({ text: libraryText(seed, 2_000), headings: [], warnings: [], format: 'txt' }),
    );
    const retry = await call<CheckStatus>(t, '/freeCheck/retryCheck', { orderId }, { token: bob.token });
    expect(retry.data.checkStatus).toBe('queued');
    expect((await goods())?.freeAvailable).toBe(false);
    expect(await runCheckJobs(t)).toHaveLength(1);
    expect(
      (await call<CheckStatus>(t, '/freeCheck/checkStatus', { orderId }, { token: bob.token })).data,
    ).toMatchObject({
      checkStatus: 'done',
    });
  });
});

describe('invoices and automatic refunds', () => {
  it('a payment accepted for a deleted check is being refunded: not offered for an invoice, the request refused; a delivered check is', async () => {
    // A check that ran: its order is invoiceable.
    const delivered = await paidCheck();
    while ((await runCheckJobs(t)).length > 0);
    expect((await orderRow(t, delivered.orderId)).status).toBe('done');
    expect(await invoiceableOrderIds()).toContain(delivered.orderId);

    // A check deleted after its order expired, whose payment (made in time) is reported late.
    t.clock.advance(MINUTE);
    const up = await upload(
      t,
      alice.token,
      { bytes: buildTxt(libraryText(seed++, 3_000)), name: '论文.txt' },
      { title: '已删除的论文' },
    );
    const { orderId, orderNo } = up.data;
    expect((await startPay(t, alice.token, orderId, 'wx')).code).toBe(0);
    await setFaults(t, { channel: 'wx', delayMs: 5_000 });
    expect((await devPay(t, orderNo, 'wx')).code).toBe(0);
    t.clock.advance(2 * HOUR + MINUTE);
    await setFaults(t, { channel: 'wx', failApiNext: 1 });
    await runJob(t, 'orders.expire');
    expect((await orderRow(t, orderId)).status).toBe('expired');
    // (The platform still holds the notification back; on a very slow machine it would not.)
    expect((await t.sandbox.findOrder('wx', orderNo))?.notification?.status).toBe('pending');
    expect((await call(t, '/freeCheck/deleteOrder', { orderId }, { token: alice.token })).code).toBe(0);
    // The refund cannot be made at once (the platform's API is down for one call).
    await setFaults(t, { channel: 'wx', failApiNext: 1 });
    expect(await t.sandbox.notificationSettled('wx', orderNo)).toBe('acked');

    const detail = (await orderDetail(orderId)).data;
    expect(detail).toMatchObject({
      status: 'paid',
      statusText: '查重记录已删除，正在自动退款',
      autoRefund: true,
    });
    expect(detail.refunds).toMatchObject([{ status: 'pending' }]);

    const offered = await invoiceableOrderIds();
    expect(offered).toContain(delivered.orderId);
    expect(offered).not.toContain(orderId);
    const refused = await requestInvoice([delivered.orderId, orderId]);
    expect(refused).toMatchObject({
      code: ErrorCode.INVOICE_ORDER_INVALID,
      message: `订单 ${orderNo} 的服务未能完成，款项已自动退还（或正在退还），不能开具发票`,
    });
    // Nothing was invoiced by the refused request: the delivered order can still be.
    expect(await invoiceableOrderIds()).toContain(delivered.orderId);

    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect((await orderDetail(orderId)).data).toMatchObject({
      status: 'refunded',
      statusText: '查重记录已删除，已自动退款',
    });
    expect(await invoiceableOrderIds()).not.toContain(orderId);
    expect((await requestInvoice([orderId])).code).toBe(ErrorCode.INVOICE_ORDER_INVALID);
    const invoice = await requestInvoice([delivered.orderId]);
    expect(invoice.code).toBe(0);
    expect(await invoiceableOrderIds()).not.toContain(delivered.orderId);
  });
});
