// Two API processes on one database (the scaled mode, issue 22): the payment sandbox keeps its
// books in the database, so a QR code made by one process is paid through /__dev/pay on the other,
// and refunded by either — no ACQ.TRADE_NOT_EXIST / ORDER_NOT_FOUND because the other process never
// saw the trade. The fault switches of /__dev/pay/faults are kept there too: a fault set through one
// process is in force on the other, and a counted fault is consumed once between them.
import { ErrorCode } from '@kyfw/contracts';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildOrdersApp,
  createClock,
  devPay,
  newOrder,
  newUser,
  type OrdersTestApp,
  operator,
  orderRow,
  setFaults,
  startPay,
} from './orders-helper.ts';

let handle: Awaited<ReturnType<typeof createTestDb>>;
let a: OrdersTestApp;
let b: OrdersTestApp;
beforeAll(async () => {
  handle = await createTestDb();
  const clock = createClock(new Date().toISOString());
  // Separate DATA_DIRs: nothing is shared but the database.
  a = await buildOrdersApp({ db: handle, clock });
  b = await buildOrdersApp({ db: handle, clock });
});
afterAll(async () => {
  await a.closeApp();
  await b.closeApp();
  await handle.close();
});

describe('the payment sandbox with two processes on one database', () => {
  for (const payType of ['wx', 'ali'] as const) {
    it(`${payType}: QR made by one process, paid on the other, refunded by the first`, async () => {
      const user = await newUser(a);
      const order = await newOrder(a, user.userId, 6_000);
      expect((await startPay(a, user.token, order.orderId, payType)).code).toBe(0);

      const paid = await devPay(b, order.orderNo);
      expect(paid).toMatchObject({ code: 0, data: { amountFen: order.amountFen } });
      expect(await b.sandbox.notificationSettled(payType, order.orderNo)).toBe('acked');
      expect((await orderRow(a, order.orderId)).status).toBe('paid');
      // Both processes read the same books.
      expect((await a.sandbox.findOrder(payType, order.orderNo))?.state).toBe('SUCCESS');

      // A partial refund through the first process, the rest through the second.
      const first = await operator<{ status: string }>(a, '/orders/refund', {
        orderNo: order.orderNo,
        amountFen: 100,
        reason: '用户申请退款',
      });
      expect(first.data).toMatchObject({ status: 'succeeded' });
      const rest = await operator<{ status: string }>(b, '/orders/refund', {
        orderNo: order.orderNo,
        reason: '用户申请退款',
      });
      expect(rest.data).toMatchObject({ status: 'succeeded' });
      expect(await orderRow(b, order.orderId)).toMatchObject({
        status: 'refunded',
        refunded_fen: order.amountFen,
      });
      expect((await b.sandbox.findOrder(payType, order.orderNo))?.refunds.map((r) => r.amountFen)).toEqual([
        100,
        order.amountFen - 100,
      ]);
    });
  }

  it('pays an order once when both processes are asked at the same time', async () => {
    const user = await newUser(a);
    const order = await newOrder(a, user.userId, 3_000);
    await startPay(a, user.token, order.orderId, 'wx');
    const results = await Promise.all([devPay(a, order.orderNo), devPay(b, order.orderNo)]);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1011]);
  });

  it('a fault switched on through one process is in force on the other, and consumed once', async () => {
    await setFaults(a, { reset: true });
    const set = await setFaults(a, { channel: 'wx', refuseRefundNext: 1 });
    expect(set.data).toMatchObject({ wx: { refuseRefundNext: 1 }, ali: { refuseRefundNext: 0 } });
    // The other process reports the same switches.
    expect((await setFaults(b, {})).data).toMatchObject({ wx: { refuseRefundNext: 1 } });

    const user = await newUser(a);
    const order = await newOrder(a, user.userId, 2_000);
    await startPay(a, user.token, order.orderId, 'wx');
    expect((await devPay(b, order.orderNo)).code).toBe(0);
    expect(await b.sandbox.notificationSettled('wx', order.orderNo)).toBe('acked');

    // Refunded through the second process: the platform refuses it, as set through the first.
    const refused = await operator<{ status: string }>(b, '/orders/refund', {
      orderNo: order.orderNo,
      reason: '用户申请退款',
    });
    expect(refused).toMatchObject({
      code: ErrorCode.REFUND_FAILED,
      message: expect.stringMatching(/NOT_ENOUGH/),
    });
    expect((await b.sandbox.findOrder('wx', order.orderNo))?.refunds).toEqual([]);
    // Consumed once for both: the next refund goes through on either process.
    expect((await setFaults(a, {})).data).toMatchObject({ wx: { refuseRefundNext: 0 } });
    expect((await setFaults(b, {})).data).toMatchObject({ wx: { refuseRefundNext: 0 } });
    const again = await operator<{ status: string }>(a, '/orders/refund', {
      orderNo: order.orderNo,
      reason: '用户申请退款',
    });
    expect(again.data).toMatchObject({ status: 'succeeded' });
  });

  it('two processes meeting the last counted fault at once consume it once', async () => {
    await setFaults(a, { reset: true });
    await setFaults(b, { channel: 'ali', dropNext: 1 });
    const user = await newUser(a);
    const orders = [await newOrder(a, user.userId, 1_000), await newOrder(a, user.userId, 1_000)];
    for (const order of orders) await startPay(a, user.token, order.orderId, 'ali');
    await Promise.all([devPay(a, orders[0]!.orderNo), devPay(b, orders[1]!.orderNo)]);
    const settled = await Promise.all([
      a.sandbox.notificationSettled('ali', orders[0]!.orderNo),
      b.sandbox.notificationSettled('ali', orders[1]!.orderNo),
    ]);
    expect(settled.sort()).toEqual(['acked', 'dropped']);
  });
});
