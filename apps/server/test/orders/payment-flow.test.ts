import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildOrdersApp,
  call,
  devPay,
  MINUTE,
  newOrder,
  newUser,
  type OrdersTestApp,
  orderRow,
  paymentsOf,
  payStatus,
  runJob,
  SECOND,
  setFaults,
  startPay,
} from './orders-helper.ts';

// Pay through the sandboxes end to end: QR code -> POST /__dev/pay (the customer's phone) -> the
// platform's signed notification -> order paid -> the service's onPaid hook, exactly once.

let t: OrdersTestApp;
let user: { token: string; userId: string };
const hookCalls: string[] = [];

beforeAll(async () => {
  t = await buildOrdersApp();
  user = await newUser(t);
  t.root.services.orders.onPaid('tech_search', async ({ tx, order }) => {
    // Written in the same transaction as the order's paid status.
    await tx.selectFrom('orders').select('id').where('id', '=', order.orderId).forUpdate().execute();
    hookCalls.push(order.orderId);
  });
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setFaults(t, { reset: true });
});

function hookCount(orderId: string) {
  return hookCalls.filter((id) => id === orderId).length;
}

describe.each(['wx', 'ali'] as const)('%s', (payType) => {
  it('start payment -> /__dev/pay -> notification -> paid, onPaid ran once, payment recorded', async () => {
    const order = await newOrder(t, user.userId, 12_345);
    // 13 units of 1,000 characters at ¥2.00, from the catalogue.
    expect(order).toMatchObject({
      amountFen: 2600,
      amount: '26.00',
      status: 'pending_payment',
      payStatus: 0,
    });

    const qr = await startPay(t, user.token, order.orderId, payType);
    expect(qr.code).toBe(0);
    expect(qr.data).toMatchObject({
      orderNo: order.orderNo,
      outTradeNo: order.orderNo,
      amount: '26.00',
      amountFen: 2600,
    });
    expect(qr.data.codeUrl).toContain(`/__sandbox/pay/${payType}/${order.orderNo}`);
    expect(qr.data.expireAt).toBe(order.expireAt);
    expect((await payStatus(t, user.token, order.orderId)).data).toMatchObject({
      payStatus: 0,
      status: 'pending_payment',
    });

    // The same channel again reuses the open QR code.
    const again = await startPay(t, user.token, order.orderId, payType);
    expect(again.data.codeUrl).toBe(qr.data.codeUrl);

    const paid = await devPay(t, order.orderNo);
    expect(paid.code).toBe(0);
    expect(await t.sandbox.notificationSettled(payType, order.orderNo)).toBe('acked');

    expect((await payStatus(t, user.token, order.orderId)).data).toMatchObject({
      payStatus: 1,
      status: 'paid',
    });
    const row = await orderRow(t, order.orderId);
    expect(row).toMatchObject({ status: 'paid', pay_channel: payType });
    expect(row.paid_hooks_at).not.toBeNull();
    expect(hookCount(order.orderId)).toBe(1);

    const payments = await paymentsOf(t, order.orderId);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      status: 'accepted',
      source: 'notification',
      channel: payType,
      amount_fen: 2600,
      transaction_id: paid.data!.transactionId,
    });
    const transitions = await t.db
      .selectFrom('order_transitions')
      .select(['from_status', 'to_status', 'actor'])
      .where('order_id', '=', order.orderId)
      .orderBy('id')
      .execute();
    expect(transitions).toEqual([
      { from_status: null, to_status: 'pending_payment', actor: 'user' },
      { from_status: 'pending_payment', to_status: 'paid', actor: 'provider' },
    ]);

    // Paying again is refused; the records page lists the payment.
    expect((await startPay(t, user.token, order.orderId, payType)).code).toBe(ErrorCode.ORDER_ALREADY_PAID);
    const records = await call<{
      list: { orderNo: string; amount: string; method: string }[];
      total: number;
    }>(t, '/payment/records', { page: 1, pageSize: 50 }, { token: user.token });
    expect(records.data.list.find((r) => r.orderNo === order.orderNo)).toMatchObject({
      amount: '26.00',
      method: payType,
    });
  });

  it('duplicate deliveries (sequential and concurrent) change nothing the second time', async () => {
    for (const duplicateConcurrently of [false, true]) {
      const order = await newOrder(t, user.userId, 3_000);
      await startPay(t, user.token, order.orderId, payType);
      await setFaults(t, { channel: payType, duplicateNext: 1, duplicateConcurrently });
      await devPay(t, order.orderNo);
      expect(await t.sandbox.notificationSettled(payType, order.orderNo)).toBe('acked');
      const deliveries = t.sandbox.deliveries.filter(
        (d) => d.orderNo === order.orderNo && d.outcome === 'acked',
      );
      expect(deliveries.length).toBe(2);
      expect(await paymentsOf(t, order.orderId)).toHaveLength(1);
      expect(hookCount(order.orderId)).toBe(1);
      expect((await orderRow(t, order.orderId)).status).toBe('paid');
    }
  });

  it('a notification that first fails in transit is redelivered and lands once', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, payType);
    await setFaults(t, { channel: payType, failNext: 2 });
    await devPay(t, order.orderNo);
    expect(await t.sandbox.notificationSettled(payType, order.orderNo)).toBe('acked');
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
    expect(await paymentsOf(t, order.orderId)).toHaveLength(1);
  });
});

describe('out of order, lost and mismatched notifications', () => {
  it('reconciliation first, notification later: the late notification changes nothing', async () => {
    const order = await newOrder(t, user.userId, 2_000);
    await startPay(t, user.token, order.orderId, 'wx');
    await setFaults(t, { channel: 'wx', delayMs: 300 });
    await devPay(t, order.orderNo);
    t.clock.advance(MINUTE);
    const summary = await runJob(t, 'orders.reconcile');
    expect(summary.paid).toBeGreaterThanOrEqual(1);
    expect(await paymentsOf(t, order.orderId)).toMatchObject([
      { source: 'reconciliation', status: 'accepted' },
    ]);
    expect(await t.sandbox.notificationSettled('wx', order.orderNo)).toBe('acked');
    expect(await paymentsOf(t, order.orderId)).toHaveLength(1);
    expect(hookCount(order.orderId)).toBe(1);
    const actors = await t.db
      .selectFrom('order_transitions')
      .select('actor')
      .where('order_id', '=', order.orderId)
      .where('to_status', '=', 'paid')
      .execute();
    expect(actors).toEqual([{ actor: 'system' }]);
  });

  it('a lost notification (sandbox drop) is recovered by the reconciliation job', async () => {
    const order = await newOrder(t, user.userId, 5_000);
    await startPay(t, user.token, order.orderId, 'ali');
    await setFaults(t, { channel: 'ali', dropNext: 1 });
    await devPay(t, order.orderNo);
    expect(await t.sandbox.notificationSettled('ali', order.orderNo)).toBe('dropped');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');

    // Too fresh for the reconciliation (the notification gets its chance first).
    await runJob(t, 'orders.reconcile');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');

    t.clock.advance(MINUTE);
    const summary = await runJob(t, 'orders.reconcile');
    expect(summary.paid).toBe(1);
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
    expect(hookCount(order.orderId)).toBe(1);
  });

  it('the status poll asks the platform itself when the notification is late', async () => {
    const order = await newOrder(t, user.userId, 5_000);
    await startPay(t, user.token, order.orderId, 'wx');
    await setFaults(t, { channel: 'wx', dropNext: 1 });
    await devPay(t, order.orderNo);
    expect((await payStatus(t, user.token, order.orderId)).data.payStatus).toBe(0);
    t.clock.advance(15 * SECOND);
    expect((await payStatus(t, user.token, order.orderId)).data).toMatchObject({
      payStatus: 1,
      status: 'paid',
    });
  });

  it('an amount that differs from the order never pays it: recorded, flagged, order pending', async () => {
    const order = await newOrder(t, user.userId, 4_000);
    await startPay(t, user.token, order.orderId, 'wx');
    // The platform holds 800 fen; make our order say otherwise (as a tampered or stale record would).
    await t.db.updateTable('orders').set({ amount_fen: 900 }).where('id', '=', order.orderId).execute();
    await devPay(t, order.orderNo);
    expect(await t.sandbox.notificationSettled('wx', order.orderNo)).toBe('acked');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');
    expect(await paymentsOf(t, order.orderId)).toMatchObject([
      { status: 'amount_mismatch', flagged: true, amount_fen: 800 },
    ]);
    expect(hookCount(order.orderId)).toBe(0);
    const flagged = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/operator/payments/flagged',
      headers: {
        'content-type': 'application/json',
        'x-operator-token': 'test-operator-token-0123456789abcdef',
      },
      payload: '{}',
    });
    expect(flagged.json().data.some((p: { orderNo: string }) => p.orderNo === order.orderNo)).toBe(true);
  });

  it('a forged notification is refused and changes nothing', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'ali');
    const res = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/pay/notify/ali',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `out_trade_no=${order.orderNo}&trade_no=2025X&trade_status=TRADE_SUCCESS&total_amount=2.00&sign_type=RSA2&sign=AAAA`,
    });
    expect(res.body).toBe('fail');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');
    expect(await paymentsOf(t, order.orderId)).toHaveLength(0);
  });
});

describe('switching channels, cancelling, late and double payments', () => {
  it('switching channels closes the other QR code; coming back gets a new platform order number', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    const wx = await startPay(t, user.token, order.orderId, 'wx');
    const ali = await startPay(t, user.token, order.orderId, 'ali');
    expect(ali.code).toBe(0);
    // The WeChat code was closed at the platform: paying it is refused there.
    expect((await t.sandbox.findOrder('wx', wx.data.outTradeNo))?.state).toBe('CLOSED');
    expect((await devPay(t, wx.data.outTradeNo, 'wx')).code).not.toBe(0);
    const wxAgain = await startPay(t, user.token, order.orderId, 'wx');
    expect(wxAgain.data.outTradeNo).toBe(`${order.orderNo}-2`);
    await devPay(t, wxAgain.data.outTradeNo, 'wx');
    expect(await t.sandbox.notificationSettled('wx', wxAgain.data.outTradeNo)).toBe('acked');
    expect((await orderRow(t, order.orderId)).status).toBe('paid');

    // The Alipay code was never scanned, so it had no trade to close and stayed payable: paying it
    // now is a second payment, recorded and refunded automatically.
    await devPay(t, order.orderNo, 'ali');
    expect(await t.sandbox.notificationSettled('ali', order.orderNo)).toBe('acked');
    const payments = await paymentsOf(t, order.orderId);
    expect(payments.map((p) => p.status).sort()).toEqual(['accepted', 'duplicate']);
    const duplicate = payments.find((p) => p.status === 'duplicate')!;
    expect(duplicate.refunded_fen).toBe(duplicate.amount_fen);
    expect((await t.sandbox.findOrder('ali', order.orderNo))?.state).toBe('REFUND');
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
  });

  it('cancel closes the QR codes; a payment after the cancel is refunded automatically', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'ali');
    expect((await call(t, '/order/cancel', { orderId: order.orderId }, { token: user.token })).code).toBe(0);
    expect((await orderRow(t, order.orderId)).status).toBe('cancelled');
    expect((await startPay(t, user.token, order.orderId, 'wx')).code).toBe(ErrorCode.ORDER_CANCELLED);

    await devPay(t, order.orderNo, 'ali');
    expect(await t.sandbox.notificationSettled('ali', order.orderNo)).toBe('acked');
    const [late] = await paymentsOf(t, order.orderId);
    expect(late).toMatchObject({ status: 'late' });
    expect(late!.refunded_fen).toBe(late!.amount_fen);
    const refunds = await t.db
      .selectFrom('refunds')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .execute();
    expect(refunds).toMatchObject([{ status: 'succeeded', actor: 'system' }]);
    expect((await orderRow(t, order.orderId)).status).toBe('cancelled');
    expect(hookCount(order.orderId)).toBe(0);
  });

  it('a late payment says where its money is: 正在自动退款 while the platform is down, 退款未能自动完成 when it refuses', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    // An Alipay code never scanned has no trade to close: it stays payable after the cancel.
    await startPay(t, user.token, order.orderId, 'ali');
    expect((await call(t, '/order/cancel', { orderId: order.orderId }, { token: user.token })).code).toBe(0);
    const paymentText = async () => {
      const records = await call<{ list: { orderId: string; status: string; statusText: string }[] }>(
        t,
        '/payment/records',
        { page: 1, pageSize: 50 },
        { token: user.token },
      );
      const detail = await call<{ payments: { statusText: string }[] }>(
        t,
        '/order/detail',
        { orderId: order.orderId },
        { token: user.token },
      );
      const listed = records.data.list.find((r) => r.orderId === order.orderId);
      expect(listed?.statusText).toBe(detail.data.payments[0]?.statusText);
      return listed?.statusText;
    };

    // The platform's refund API is down for the automatic refund: still under way.
    await setFaults(t, { channel: 'ali', failApiNext: 1 });
    await devPay(t, order.orderNo, 'ali');
    expect(await t.sandbox.notificationSettled('ali', order.orderNo)).toBe('acked');
    expect(await paymentText()).toBe('订单已关闭，正在自动退款');
    // The reconciliation tries again and the platform refuses it for good: flagged for an operator.
    await setFaults(t, { channel: 'ali', refuseRefundNext: 1 });
    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect(await paymentText()).toBe('订单已关闭，退款未能自动完成，客服将与您联系处理');
    expect((await t.sandbox.findOrder('ali', order.orderNo))?.refunds).toEqual([]);
    expect((await orderRow(t, order.orderId)).status).toBe('cancelled');
  });

  it('a paid order cannot be cancelled or deleted; a cancelled one can be deleted (hidden)', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'wx');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);
    expect((await call(t, '/order/cancel', { orderId: order.orderId }, { token: user.token })).code).toBe(
      ErrorCode.ORDER_ALREADY_PAID,
    );
    expect((await call(t, '/order/delete', { orderId: order.orderId }, { token: user.token })).code).toBe(
      ErrorCode.ORDER_NOT_DELETABLE,
    );

    const other = await newOrder(t, user.userId, 1_000);
    expect((await call(t, '/order/delete', { orderId: other.orderId }, { token: user.token })).code).toBe(
      ErrorCode.ORDER_NOT_DELETABLE,
    );
    await call(t, '/order/cancel', { orderId: other.orderId }, { token: user.token });
    expect((await call(t, '/order/delete', { orderId: other.orderId }, { token: user.token })).code).toBe(0);
    const list = await call<{ list: { orderId: string }[] }>(
      t,
      '/order/list',
      { pageSize: 50 },
      { token: user.token },
    );
    expect(list.data.list.some((o) => o.orderId === other.orderId)).toBe(false);
    // Hidden, not destroyed.
    expect((await orderRow(t, other.orderId)).deleted_by_user).toBe(true);
  });
});
