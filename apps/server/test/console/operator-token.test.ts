import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.ts';
import { testConfig } from '../helper.ts';
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

describe('the token has only the scopes of OPERATOR_TOKEN_SCOPES', () => {
  it('a call outside them is refused, names the scope it needs, changes nothing and is audited', async () => {
    const scoped = await buildOrdersApp({ env: { OPERATOR_TOKEN_SCOPES: 'orders:read, orders:ship' } });
    try {
      const user = await newUser(scoped);
      const order = await newOrder(scoped, user.userId, 1_000);
      await startPay(scoped, user.token, order.orderId, 'wx');
      await devPay(scoped, order.orderNo);
      await scoped.sandbox.notificationSettled('wx', order.orderNo);

      expect((await operator(scoped, '/orders/detail', { orderNo: order.orderNo })).code).toBe(0);
      const refund = await operator(scoped, '/orders/refund', { orderNo: order.orderNo, reason: '越权退款' });
      expect(refund).toMatchObject({
        code: ErrorCode.FORBIDDEN,
        message: '运营接口凭证无权执行此操作：需要权限 orders:refund，请在 OPERATOR_TOKEN_SCOPES 中授予',
      });
      const goods = await operator(scoped, '/goods/update', { goodsId: 'x', unitPriceFen: 1 });
      expect(goods.message).toContain('goods:update');
      // Nothing was refunded: the order is still paid, without a refund.
      const detail = await operator<{ status: string; refunds: unknown[] }>(scoped, '/orders/detail', {
        orderNo: order.orderNo,
      });
      expect(detail.data).toMatchObject({ status: 'paid', refunds: [] });

      const rows = await scoped.db
        .selectFrom('audit_log')
        .selectAll()
        .where('username', '=', 'operator-token')
        .where('outcome', '=', 'refused')
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.action, r.target, r.detail])).toEqual([
        [
          'token:/orders/refund',
          order.orderNo,
          { code: ErrorCode.FORBIDDEN, status: 200, reason: 'scope', scope: 'orders:refund' },
        ],
        [
          'token:/goods/update',
          'x',
          { code: ErrorCode.FORBIDDEN, status: 200, reason: 'scope', scope: 'goods:update' },
        ],
      ]);
    } finally {
      await scoped.close();
    }
  });

  it('none by default: with the token right, every endpoint still says which scope it needs', async () => {
    const bare = await buildOrdersApp({ env: { OPERATOR_TOKEN_SCOPES: '' } });
    try {
      const answer = await operator(bare, '/payments/flagged', {});
      expect(answer).toMatchObject({ code: ErrorCode.FORBIDDEN });
      expect(answer.message).toContain('orders:read');
    } finally {
      await bare.close();
    }
  });

  it('an unknown scope stops the start, listing the known ones', () => {
    let error: unknown;
    try {
      testConfig({ OPERATOR_TOKEN_SCOPES: 'orders:read,orders:everything' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('OPERATOR_TOKEN_SCOPES');
    expect((error as ConfigError).message).toContain('offline:decide');
    expect(testConfig({ OPERATOR_TOKEN_SCOPES: 'orders:read orders:ship' }).orders.operatorScopes).toEqual([
      'orders:read',
      'orders:ship',
    ]);
  });
});

describe('wrong tokens (issue 22: 300 anonymous calls wrote 300 audit rows)', () => {
  const wrong = (remoteAddress: string, token = 'guess-0123456789abcdefghij') =>
    t.app
      .inject({
        method: 'POST',
        url: '/kyfw/web/v1/operator/orders/detail',
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-operator-token': token },
        payload: JSON.stringify({ orderNo: 'DD0' }),
      })
      .then((res) => res.json() as { code: number; message: string });
  const refusedRows = async (ip: string) =>
    (await tokenRows()).filter((row) => row.ip === ip && row.outcome === 'refused');

  it('are throttled past 20 in 10 minutes and aggregated: a row at the 1st, 10th and 100th, with the count', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 300; i++) codes.push((await wrong('10.66.0.1')).code);
    expect(codes.slice(0, 20).every((c) => c === ErrorCode.OPERATOR_UNAUTHORIZED)).toBe(true);
    expect(codes.slice(20).every((c) => c === ErrorCode.RATE_LIMITED)).toBe(true);
    expect((await wrong('10.66.0.1')).message).toBe('操作员令牌错误次数过多，请10分钟后再试');
    const rows = await refusedRows('10.66.0.1');
    expect(rows.map((r) => (r.detail as { refusedInWindow: number }).refusedInWindow)).toEqual([1, 10, 100]);
    // Another address is not held back; the right token still works from the throttled one.
    expect((await wrong('10.66.0.2')).code).toBe(ErrorCode.OPERATOR_UNAUTHORIZED);
    const right = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/operator/orders/detail',
      remoteAddress: '10.66.0.1',
      headers: { 'content-type': 'application/json', 'x-operator-token': OPERATOR_TOKEN },
      payload: JSON.stringify({ orderNo: 'DD0' }),
    });
    expect((right.json() as { code: number }).code).not.toBe(ErrorCode.RATE_LIMITED);
    // A new window after 10 minutes.
    t.clock.advance(10 * 60_000);
    expect((await wrong('10.66.0.1')).code).toBe(ErrorCode.OPERATOR_UNAUTHORIZED);
    expect(await refusedRows('10.66.0.1')).toHaveLength(4);
  });
});
