import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildOrdersApp,
  call,
  devPay,
  newOrder,
  newUser,
  type OrdersTestApp,
  operator,
  orderRow,
  startPay,
} from './orders-helper.ts';

let t: OrdersTestApp;
let alice: { token: string; userId: string };
let bob: { token: string; userId: string };

beforeAll(async () => {
  t = await buildOrdersApp();
  alice = await newUser(t);
  bob = await newUser(t);
});

afterAll(async () => {
  await t.close();
});

const HOME = {
  name: '张三',
  phone: '13800138000',
  province: '北京市',
  city: '北京市',
  district: '海淀区',
  detail: '中关村大街27号',
};

interface Address {
  id: string;
  isDefault: boolean;
  city: string;
}

describe('cityList and addresses', () => {
  it('/websiteUser/cityList is the province > city > district tree', async () => {
    const res = await call<
      { code: string; name: string; children: { name: string; children: { name: string }[] }[] }[]
    >(t, '/websiteUser/cityList');
    expect(res.data.length).toBe(31);
    const beijing = res.data.find((p) => p.name === '北京市')!;
    expect(beijing.children[0]!.name).toBe('北京市');
    expect(beijing.children[0]!.children.map((d) => d.name)).toContain('海淀区');
    const guangdong = res.data.find((p) => p.name === '广东省')!;
    expect(guangdong.children.find((c) => c.name === '深圳市')!.children.map((d) => d.name)).toContain(
      '南山区',
    );
  });

  it('save, list, default, edit, delete — the first address is the default, deleting it promotes another', async () => {
    const first = await call<Address>(t, '/address/save', HOME, { token: alice.token });
    expect(first.code).toBe(0);
    expect(first.data.isDefault).toBe(true);
    const second = await call<Address>(
      t,
      '/address/save',
      { ...HOME, province: '广东省', city: '深圳市', district: '南山区', detail: '科技园1号' },
      { token: alice.token },
    );
    expect(second.data.isDefault).toBe(false);
    await call(t, '/address/setDefault', { id: second.data.id }, { token: alice.token });
    let list = await call<Address[]>(t, '/address/list', {}, { token: alice.token });
    expect(list.data.map((a) => [a.id, a.isDefault])).toEqual([
      [second.data.id, true],
      [first.data.id, false],
    ]);

    const edited = await call<Address & { detail: string }>(
      t,
      '/address/save',
      { ...HOME, id: first.data.id, detail: '中关村大街1号', isDefault: 1 },
      { token: alice.token },
    );
    expect(edited.data).toMatchObject({ detail: '中关村大街1号', isDefault: true });
    list = await call<Address[]>(t, '/address/list', {}, { token: alice.token });
    expect(list.data.filter((a) => a.isDefault)).toHaveLength(1);

    await call(t, '/address/delete', { id: first.data.id }, { token: alice.token });
    list = await call<Address[]>(t, '/address/list', {}, { token: alice.token });
    expect(list.data).toMatchObject([{ id: second.data.id, isDefault: true }]);
  });

  it("refuses unknown regions and bad phones, and another user's address", async () => {
    const badRegion = await call(
      t,
      '/address/save',
      { ...HOME, district: '不存在区' },
      { token: alice.token },
    );
    expect(badRegion).toMatchObject({ code: ErrorCode.VALIDATION, message: '请选择正确的省市区' });
    const badPhone = await call(t, '/address/save', { ...HOME, phone: '12345' }, { token: alice.token });
    expect(badPhone).toMatchObject({ code: ErrorCode.VALIDATION, message: '请输入正确的手机号码' });
    const [aliceAddress] = (await call<Address[]>(t, '/address/list', {}, { token: alice.token })).data;
    for (const path of ['/address/delete', '/address/setDefault']) {
      expect((await call(t, path, { id: aliceAddress!.id }, { token: bob.token })).code).toBe(
        ErrorCode.RESOURCE_NOT_FOUND,
      );
    }
    expect(
      (await call(t, '/address/save', { ...HOME, id: aliceAddress!.id }, { token: bob.token })).code,
    ).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });

  it("courier delivery ties a copy of the address to the order; the operator's tracking number shows in the detail", async () => {
    const address = await call<Address>(
      t,
      '/address/save',
      { ...HOME, detail: '学院路1号' },
      { token: alice.token },
    );
    const order = await newOrder(t, alice.userId, 1_000);
    const set = await call<{ detail: string; statusText: string }>(
      t,
      '/order/delivery',
      { orderId: order.orderId, addressId: address.data.id },
      { token: alice.token },
    );
    expect(set.data).toMatchObject({ detail: '学院路1号', statusText: '待发货' });
    expect(
      (
        await operator(t, '/orders/ship', {
          orderNo: order.orderNo,
          carrier: '顺丰速运',
          trackingNo: 'SF1234567890',
        })
      ).code,
    ).toBe(ErrorCode.DELIVERY_NOT_ALLOWED);
    await startPay(t, alice.token, order.orderId, 'wx');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);
    expect(
      (
        await operator(t, '/orders/ship', {
          orderNo: order.orderNo,
          carrier: '顺丰速运',
          trackingNo: 'SF1234567890',
        })
      ).code,
    ).toBe(0);

    // Editing the address later does not move the parcel; after shipping the delivery is fixed.
    await call(
      t,
      '/address/save',
      { ...HOME, id: address.data.id, detail: '别处2号' },
      { token: alice.token },
    );
    const detail = await call<{
      delivery: { detail: string; carrier: string; trackingNo: string; statusText: string };
    }>(t, '/order/detail', { orderId: order.orderId }, { token: alice.token });
    expect(detail.data.delivery).toMatchObject({
      detail: '学院路1号',
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
      statusText: '已发货',
    });
    expect(
      (
        await call(
          t,
          '/order/delivery',
          { orderId: order.orderId, addressId: address.data.id },
          { token: alice.token },
        )
      ).code,
    ).toBe(ErrorCode.DELIVERY_NOT_ALLOWED);
    // Bob can use neither Alice's order nor her address.
    const bobAddress = await call<Address>(t, '/address/save', HOME, { token: bob.token });
    expect(
      (
        await call(
          t,
          '/order/delivery',
          { orderId: order.orderId, addressId: bobAddress.data.id },
          { token: bob.token },
        )
      ).code,
    ).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });
});

describe("two users: nobody sees, pays, cancels, deletes or invoices another user's order", () => {
  it('answers RESOURCE_NOT_FOUND exactly as for a missing order', async () => {
    const order = await newOrder(t, alice.userId, 1_000);
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [path, body] of [
      ['/order/detail', { orderId: order.orderId }],
      ['/order/pay', { orderId: order.orderId, payType: 'wx' }],
      ['/order/payStatus', { orderId: order.orderId }],
      ['/weightReduction/orderPayStatus', { orderId: order.orderId }],
      ['/order/cancel', { orderId: order.orderId }],
      ['/order/delete', { orderId: order.orderId }],
    ] as const) {
      const other = await call(t, path, body, { token: bob.token });
      const none = await call(t, path, { ...body, orderId: missing }, { token: bob.token });
      expect(other).toEqual(none);
      expect(other.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    }
    const list = await call<{ list: { orderId: string }[]; total: number }>(
      t,
      '/order/list',
      {},
      { token: bob.token },
    );
    expect(list.data.list.some((o) => o.orderId === order.orderId)).toBe(false);
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');
    // Without a login nothing at all.
    expect((await call(t, '/order/list', {})).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it("a service route only pays its own service's orders; amounts come only from the catalogue", async () => {
    const order = await newOrder(t, alice.userId, 1_000);
    // A check order through the AI-writing pay endpoint: not found.
    expect(
      (
        await call(
          t,
          '/aiWriting/freeCheckQrPayCode',
          { orderId: order.orderId, payType: 'wx' },
          { token: alice.token },
        )
      ).code,
    ).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    // An amount in the body is ignored (unknown keys are stripped); the QR code is for the catalogue price.
    const qr = await call<{ amountFen: number }>(
      t,
      '/order/pay',
      { orderId: order.orderId, payType: 'ali', amount: '0.01', amountFen: 1 },
      { token: alice.token },
    );
    expect(qr.data.amountFen).toBe(200);
    expect((await t.sandbox.findOrder('ali', order.orderNo))?.amountFen).toBe(200);
    await expect(
      t.orders.createOrder({
        userId: alice.userId,
        serviceType: 'check',
        goodsId: 'check_undergrad',
        quantity: 999_999,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.QUANTITY_OUT_OF_RANGE });
    await expect(
      t.orders.createOrder({
        userId: alice.userId,
        serviceType: 'reduction',
        goodsId: 'check_undergrad',
        quantity: 1000,
      }),
    ).rejects.toMatchObject({ code: ErrorCode.GOODS_NOT_FOUND });
  });

  it('the reduction and AI-writing pay endpoints are thin calls into the same service', async () => {
    const order = await t.orders.createOrder({
      userId: alice.userId,
      serviceType: 'ai_writing',
      goodsId: 'ai_writing_dissertation',
      quantity: 1,
    });
    const qr = await call<{ amount: string }>(
      t,
      '/aiWriting/freeCheckQrPayCode',
      { orderId: order.orderId, payType: 'wx' },
      { token: alice.token },
    );
    expect(qr.data.amount).toBe('99.00');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);
    // The payment went through the same service; this order has no writing behind it (made here
    // by hand), so the writing module's paid hook refunds it at once instead of keeping the money.
    expect(
      (await call(t, '/aiWriting/orderPayStatus', { orderId: order.orderId }, { token: alice.token })).data,
    ).toMatchObject({ payChannel: 'wx', paidAt: expect.any(String), status: 'refunded' });
  });
});

describe('account deletion', () => {
  it('de-identifies orders, payments, invoices and deliveries, deletes addresses, keeps the money records', async () => {
    const carol = await newUser(t);
    const address = await call<Address>(t, '/address/save', HOME, { token: carol.token });
    const order = await newOrder(t, carol.userId, 1_000);
    await call(
      t,
      '/order/delivery',
      { orderId: order.orderId, addressId: address.data.id },
      { token: carol.token },
    );
    await startPay(t, carol.token, order.orderId, 'wx');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);
    await call(
      t,
      '/invoice/create',
      { orderIds: [order.orderId], titleType: 'personal', title: '王五', email: 'ww@example.com' },
      { token: carol.token },
    );
    const pending = await newOrder(t, carol.userId, 1_000);

    await t.db.transaction().execute((tx) =>
      t.root.services.accounts.hooks.runDeletion(tx, carol.userId, {
        db: t.db,
        now: t.clock.now(),
        status: 'deleted',
      }),
    );

    expect(
      await t.db.selectFrom('addresses').selectAll().where('user_id', '=', carol.userId).execute(),
    ).toEqual([]);
    const delivery = await t.db
      .selectFrom('order_deliveries')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ recipient_name: '', phone: '', detail: '', province: '北京市' });
    const invoice = await t.db
      .selectFrom('invoices')
      .selectAll()
      .where('user_id', '=', carol.userId)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      title: '（已注销用户）',
      email: null,
      taxpayer_id: null,
      pdf_file_key: null,
      amount_fen: 200,
    });
    const payments = await t.db
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', order.orderId)
      .execute();
    expect(payments).toMatchObject([{ status: 'accepted', amount_fen: 200, raw: {} }]);
    expect(await orderRow(t, order.orderId)).toMatchObject({
      status: 'paid',
      deleted_by_user: true,
      meta: {},
    });
    expect((await orderRow(t, pending.orderId)).status).toBe('cancelled');
    const purge = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'orders.purge-files')
      .execute();
    expect(purge.length).toBeGreaterThanOrEqual(1);
  });
});
