import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildOrdersApp,
  devPay,
  newOrder,
  newUser,
  OPERATOR_TOKEN,
  type OrdersTestApp,
  operator,
  startPay,
} from '../orders/orders-helper.ts';

let t: OrdersTestApp;

beforeAll(async () => {
  t = await buildOrdersApp();
});

afterAll(async () => {
  await t.close();
});

function tokenRows() {
  return t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('username', '=', 'operator-token')
    .orderBy('id')
    .execute();
}

describe('the shared-token operator API is audited', () => {
  it('writes one row per call — answered, failed or refused — with the target and never the token', async () => {
    const user = await newUser(t);
    const order = await newOrder(t, user.userId, 1_000);
    await startPay(t, user.token, order.orderId, 'wx');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);

    expect((await operator(t, '/orders/detail', { orderNo: order.orderNo })).code).toBe(0);
    const refused = await operator(
      t,
      '/orders/refund',
      { orderNo: order.orderNo, reason: '试试' },
      'wrong-token',
    );
    expect(refused.code).toBe(ErrorCode.OPERATOR_UNAUTHORIZED);
    const failed = await operator(t, '/orders/ship', {
      orderNo: order.orderNo,
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
    });
    expect(failed.code).not.toBe(0);

    const rows = await tokenRows();
    expect(rows.map((r) => [r.action, r.outcome, r.target])).toEqual([
      ['token:/orders/detail', 'ok', order.orderNo],
      ['token:/orders/refund', 'refused', null],
      ['token:/orders/ship', 'failed', order.orderNo],
    ]);
    expect(rows[0]).toMatchObject({ role: 'automation', staff_id: null, ip: '127.0.0.1' });
    const written = JSON.stringify(rows);
    expect(written).not.toContain(OPERATOR_TOKEN);
    expect(written).not.toContain('wrong-token');
  });
});
