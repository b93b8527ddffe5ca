import { ErrorCode } from '@kyfw/contracts';
import { ORDER_STATUSES, type OrderStatus } from '@kyfw/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  InvalidTransitionError,
  ORDER_TRANSITIONS,
} from '../../src/modules/orders/order-state.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  HOUR,
  MINUTE,
  newOrder,
  newUser,
  type OrdersTestApp,
  operator,
  orderRow,
  paymentsOf,
  runJob,
  setFaults,
  startPay,
} from './orders-helper.ts';

describe('order state machine', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'pending_payment->paid',
        'pending_payment->cancelled',
        'pending_payment->expired',
        'paid->processing',
        'paid->done',
        'paid->refunded',
        'processing->done',
        'processing->refunded',
        'done->refunded',
        'expired->paid',
      ].sort(),
    );
    for (const final of ['cancelled', 'refunded'] as OrderStatus[])
      expect(ORDER_TRANSITIONS[final]).toEqual([]);
  });

  it('checks the actor: a user can never mark an order paid, only the system expires', () => {
    expect(canTransition('pending_payment', 'paid', 'provider')).toBe(true);
    expect(canTransition('pending_payment', 'paid', 'operator')).toBe(true);
    expect(canTransition('pending_payment', 'paid', 'user')).toBe(false);
    expect(canTransition('pending_payment', 'cancelled', 'user')).toBe(true);
    expect(canTransition('pending_payment', 'expired', 'user')).toBe(false);
    expect(() => assertTransition('done', 'paid', 'system')).toThrow(InvalidTransitionError);
    expect(() => assertTransition('cancelled', 'paid', 'provider')).toThrow(InvalidTransitionError);
  });
});

let t: OrdersTestApp;
let user: { token: string; userId: string };

beforeAll(async () => {
  t = await buildOrdersApp();
  user = await newUser(t);
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setFaults(t, { reset: true });
});

describe('expiry', () => {
  it('an unpaid order expires after ORDER_EXPIRE_MINUTES: closed at the platform, marked expired', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    expect(new Date(order.expireAt).getTime() - new Date(order.createdAt).getTime()).toBeGreaterThan(
      119 * MINUTE,
    );
    await startPay(t, user.token, order.orderId, 'wx');

    t.clock.advance(HOUR);
    await runJob(t, 'orders.expire');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');

    t.clock.advance(HOUR + MINUTE);
    const result = await runJob(t, 'orders.expire');
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect((await orderRow(t, order.orderId)).status).toBe('expired');
    expect((await t.sandbox.findOrder('wx', order.orderNo))?.state).toBe('CLOSED');
    const attempts = await t.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .execute();
    expect(attempts).toMatchObject([{ status: 'closed' }]);
    const last = await t.db
      .selectFrom('order_transitions')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({ from_status: 'pending_payment', to_status: 'expired', actor: 'system' });

    expect((await startPay(t, user.token, order.orderId, 'ali')).code).toBe(ErrorCode.ORDER_EXPIRED);
    expect((await devPay(t, order.orderNo, 'wx')).code).not.toBe(0);
    // A second run changes nothing.
    await runJob(t, 'orders.expire');
    expect((await orderRow(t, order.orderId)).status).toBe('expired');
  });

  it('a payment made before the expiry whose notification was lost wins over the expiry', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'wx');
    await setFaults(t, { channel: 'wx', dropNext: 1 });
    await devPay(t, order.orderNo);
    t.clock.advance(2 * HOUR + MINUTE);
    const result = await runJob(t, 'orders.expire');
    expect(result.paid).toBeGreaterThanOrEqual(1);
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
    expect(await paymentsOf(t, order.orderId)).toMatchObject([
      { status: 'accepted', source: 'reconciliation' },
    ]);
  });

  it('an unscanned Alipay code (no trade to close) stays open at expiry and is closed once its time and grace have passed', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'ali');
    // The phone opens the code (Alipay creates the trade) only after our expiry ran.
    t.clock.advance(2 * HOUR + MINUTE);
    await runJob(t, 'orders.expire');
    expect((await orderRow(t, order.orderId)).status).toBe('expired');
    const attempt = await t.db
      .selectFrom('payment_attempts')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    // No trade to close at Alipay: the attempt stays open until its expiry (plus grace) has passed.
    expect(attempt.status).toBe('open');
    t.clock.advance(5 * MINUTE);
    await runJob(t, 'orders.reconcile');
    expect(
      (
        await t.db
          .selectFrom('payment_attempts')
          .select('status')
          .where('id', '=', attempt.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('closed');
  });
});

describe('markProcessing / markDone (service API)', () => {
  it('moves a paid order forward, idempotently, and refuses an unpaid one', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    await expect(t.orders.markProcessing(order.orderId)).rejects.toBeInstanceOf(InvalidTransitionError);
    await startPay(t, user.token, order.orderId, 'ali');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('ali', order.orderNo);
    expect((await t.orders.markProcessing(order.orderId)).status).toBe('processing');
    expect((await t.orders.markProcessing(order.orderId)).status).toBe('processing');
    expect((await t.orders.markDone(order.orderId)).status).toBe('done');
    expect((await t.orders.markDone(order.orderId)).status).toBe('done');
    const statuses = await t.db
      .selectFrom('order_transitions')
      .select('to_status')
      .where('order_id', '=', order.orderId)
      .orderBy('id')
      .execute();
    expect(statuses.map((s) => s.to_status)).toEqual(['pending_payment', 'paid', 'processing', 'done']);
  });
});

describe('refunds (operator API)', () => {
  async function paidOrder(payType: 'wx' | 'ali', quantity = 10_000) {
    const order = await newOrder(t, user.userId, quantity);
    await startPay(t, user.token, order.orderId, payType);
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled(payType, order.orderNo);
    return order;
  }

  it('needs the operator token', async () => {
    const order = await paidOrder('wx');
    expect(
      (await operator(t, '/orders/refund', { orderNo: order.orderNo, reason: '用户申请' }, '')).code,
    ).toBe(ErrorCode.OPERATOR_UNAUTHORIZED);
    expect(
      (
        await operator(
          t,
          '/orders/refund',
          { orderNo: order.orderNo, reason: '用户申请' },
          'wrong-token-wrong-token-wrong',
        )
      ).code,
    ).toBe(ErrorCode.OPERATOR_UNAUTHORIZED);
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
  });

  it.each(['wx', 'ali'] as const)(
    '%s: partial then full refund through the platform; the order becomes refunded',
    async (payType) => {
      const order = await paidOrder(payType);
      const first = await operator<{ status: string; amountFen: number }>(t, '/orders/refund', {
        orderNo: order.orderNo,
        amountFen: 500,
        reason: '部分退款',
      });
      expect(first.data).toMatchObject({ status: 'succeeded', amountFen: 500 });
      expect(await orderRow(t, order.orderId)).toMatchObject({ status: 'paid', refunded_fen: 500 });

      const tooMuch = await operator(t, '/orders/refund', {
        orderNo: order.orderNo,
        amountFen: 1600,
        reason: 'x',
      });
      expect(tooMuch.code).toBe(ErrorCode.REFUND_NOT_ALLOWED);

      const rest = await operator<{ status: string; amountFen: number }>(t, '/orders/refund', {
        orderNo: order.orderNo,
        reason: '用户申请退款',
      });
      expect(rest.data).toMatchObject({ status: 'succeeded', amountFen: 1500 });
      expect(await orderRow(t, order.orderId)).toMatchObject({ status: 'refunded', refunded_fen: 2000 });
      expect((await t.sandbox.findOrder(payType, order.orderNo))?.refunds.map((r) => r.amountFen)).toEqual([
        500, 1500,
      ]);
      expect((await operator(t, '/orders/refund', { orderNo: order.orderNo, reason: 'again' })).code).toBe(
        ErrorCode.REFUND_NOT_ALLOWED,
      );

      const detail = await call<{ status: string; refunds: { amount: string; status: string }[] }>(
        t,
        '/order/detail',
        { orderId: order.orderId },
        { token: user.token },
      );
      expect(detail.data.status).toBe('refunded');
      expect(detail.data.refunds.map((r) => r.amount)).toEqual(['5.00', '15.00']);
    },
  );

  it('a refund the platform cannot take now stays pending and the reconciliation finishes it', async () => {
    const order = await paidOrder('wx');
    await setFaults(t, { channel: 'wx', failApiNext: 1 });
    const res = await operator<{ status: string }>(t, '/orders/refund', {
      orderNo: order.orderNo,
      reason: '用户申请',
    });
    expect(res.data.status).toBe('pending');
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
    t.clock.advance(MINUTE);
    await runJob(t, 'orders.reconcile');
    expect((await orderRow(t, order.orderId)).status).toBe('refunded');
    expect((await t.sandbox.findOrder('wx', order.orderNo))?.refunds).toHaveLength(1);
  });

  it('an unpaid order cannot be refunded', async () => {
    const order = await newOrder(t, user.userId, 1_000);
    expect((await operator(t, '/orders/refund', { orderNo: order.orderNo, reason: 'x' })).code).toBe(
      ErrorCode.REFUND_NOT_ALLOWED,
    );
  });
});
