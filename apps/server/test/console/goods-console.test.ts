import { type AdminGoods, ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnaroundDaysOf } from '../../src/modules/commission/commission.repo.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, call, newOrder, newUser, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { admin: '', finance: '', support: '', editor: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'finance', 'support', 'editor'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `goods-${role}`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

const base = {
  goodsId: 'tech_search_quick',
  serviceType: 'tech_search',
  name: '科技查新·加急',
  description: '三个工作日内出具查新报告。',
  unitPrice: '880.5',
  unitSize: 1,
  unit: '份',
  minQuantity: 1,
  maxQuantity: 1,
  sortOrder: 90,
  freeRule: null,
};

const list = async (cookie = cookies.admin) =>
  (await calls.post<AdminGoods[]>('/goods/list', {}, cookie)).body;
const goodsRow = async (id: string) => (await list()).data!.find((g) => g.goodsId === id);
const publicGoods = async (serviceType: string) =>
  (await call<{ goodsId: string; unitPrice: string }[]>(t, '/goods/list', { serviceType })).data;

describe('prices only from the goods’ fields', () => {
  it('no description repeats a price; one with a price is refused; users never see one', async () => {
    for (const g of (await list()).data!) expect(g.description, g.goodsId).not.toMatch(/\d\s*元/);
    const refused = await calls.post(
      '/goods/update',
      {
        ...base,
        goodsId: 'search_report_standard',
        serviceType: 'search_report',
        description: '每篇每库 15 元',
      },
      cookies.admin,
    );
    expect(refused.body).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(refused.body.message).toContain('商品说明中不要写价格');
    // A price written straight into the table (an older row) is not shown to users.
    await t.db
      .updateTable('goods')
      .set({ description: '按字符数计费，每千字 2 元。' })
      .where('id', '=', 'check_journal')
      .execute();
    const shown = await call<{ goodsId: string; description: string; unitPrice: string }[]>(
      t,
      '/goods/list',
      {
        serviceType: 'check',
      },
    );
    expect(shown.data.find((g) => g.goodsId === 'check_journal')).toMatchObject({
      description: '按字符数计费。',
    });
  });
});

describe('goods and prices', () => {
  it('lists every goods with type, price, unit, free rule, on/off sale and orders; finance may read', async () => {
    const all = await list(cookies.finance);
    expect(all.code).toBe(0);
    expect(all.data!.find((g) => g.goodsId === 'check_undergrad')).toMatchObject({
      serviceTypeText: '论文查重',
      unitPrice: '2.00',
      unit: '千字',
      active: true,
      freeRule: { entitlement: 'free_check', maxQuantity: 10000 },
    });
  });

  it('the admin creates goods: users see them at once; the audit log keeps who, what and from where', async () => {
    const created = await calls.post<AdminGoods>('/goods/create', base, cookies.admin);
    expect(created.body).toMatchObject({ code: 0, message: '商品已创建并上架' });
    expect(created.body.data).toMatchObject({ unitPriceFen: 88050, unitPrice: '880.50', active: true });
    expect((await publicGoods('tech_search'))!.find((g) => g.goodsId === base.goodsId)?.unitPrice).toBe(
      '880.50',
    );
    const [audit] = await calls.auditRows('goods.create');
    expect(audit).toMatchObject({
      username: 'goods-admin',
      role: 'admin',
      outcome: 'ok',
      target: base.goodsId,
    });
    expect(audit!.after).toMatchObject({ unitPriceFen: 88050, name: '科技查新·加急' });
    expect(audit!.ip).toBeTruthy();
    const again = await calls.post('/goods/create', base, cookies.admin);
    expect(again.body).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '商品编号 tech_search_quick 已存在，请换一个编号',
    });
  });

  it('a new price is what the next order costs; an order already made keeps the price it was sold at', async () => {
    const user = await newUser(t);
    const before = await newOrder(t, user.userId, 12_345);
    const edited = await calls.post<AdminGoods>(
      '/goods/update',
      {
        ...base,
        goodsId: 'test_tech_search',
        name: '科技查新（测试）',
        unit: '千字',
        unitSize: 1000,
        maxQuantity: 300000,
        unitPrice: '3.5',
      },
      cookies.admin,
    );
    expect(edited.body).toMatchObject({ code: 0, message: '商品已保存，新价格立即生效；已下的订单保持原价' });
    expect((await publicGoods('tech_search'))!.find((g) => g.goodsId === 'test_tech_search')?.unitPrice).toBe(
      '3.50',
    );
    const after = await newOrder(t, user.userId, 12_345);
    expect(after.amountFen).toBe(13 * 350);
    const old = await t.db
      .selectFrom('orders')
      .select(['amount_fen', 'unit_price_fen'])
      .where('id', '=', before.orderId)
      .executeTakeFirstOrThrow();
    expect(old).toEqual({ amount_fen: 13 * 200, unit_price_fen: 200 });
    const [audit] = await calls.auditRows('goods.update');
    expect(audit!.before).toMatchObject({ unitPriceFen: 200 });
    expect(audit!.after).toMatchObject({ unitPriceFen: 350 });
  });

  it('refuses bad input with a Chinese message and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ unitPrice: '-1' }, '单价须为不超过 99999.99 的金额，最多两位小数'],
      [{ unitPrice: '1.234' }, '单价须为不超过 99999.99 的金额，最多两位小数'],
      [{ unitPrice: '0' }, '单价须大于 0（免费使用请设置免费规则）'],
      [{ unitPrice: 'abc' }, '单价须为不超过 99999.99 的金额，最多两位小数'],
      [{ name: '  ' }, '请填写商品名称'],
      [{ name: '长'.repeat(61) }, '商品名称不能超过60个字'],
      [{ minQuantity: 5, maxQuantity: 2 }, '最大数量不能小于最小数量'],
      [{ goodsId: 'Bad Id' }, '商品编号须为 2–40 位小写字母、数字或下划线'],
      [{ serviceType: 'check' }, '已有商品不能更改服务类型；如需其他类型，请新建商品'],
      [
        { freeRule: { entitlement: 'free_check', maxQuantity: null, text: '免费一次' } },
        '「科技查新」商品没有免费使用，不能设置免费规则',
      ],
    ];
    const before = await goodsRow(base.goodsId);
    for (const [patch, message] of cases) {
      const res = await calls.post('/goods/update', { ...base, ...patch }, cookies.admin);
      expect(res.body, JSON.stringify(patch)).toMatchObject({ code: ErrorCode.VALIDATION, message });
    }
    expect(await goodsRow(base.goodsId)).toEqual(before);
    const unknown = await calls.post('/goods/update', { ...base, goodsId: 'no_such_goods' }, cookies.admin);
    expect(unknown.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '商品不存在' });
  });

  it('free rules: a goods accepts only the free use of its kind, within the server cap', async () => {
    const undergrad = (await goodsRow('check_undergrad'))!;
    const body = {
      ...undergrad,
      unitPrice: undergrad.unitPrice,
      freeRule: { entitlement: 'free_aigc_detection', maxQuantity: 8000, text: '注册送一次' },
    };
    expect((await calls.post('/goods/update', body, cookies.admin)).body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '该商品只能使用「免费查重」作为免费规则',
    });
    const tooMuch = {
      ...body,
      freeRule: { entitlement: 'free_check', maxQuantity: 900_000, text: '注册送一次' },
    };
    expect((await calls.post('/goods/update', tooMuch, cookies.admin)).body.message).toMatch(
      /^免费字数上限须在 1–\d+ 之间$/,
    );
    const ok = {
      ...body,
      freeRule: { entitlement: 'free_check', maxQuantity: 8000, text: '注册即送免费查重一次（8千字以内）' },
    };
    expect((await calls.post('/goods/update', ok, cookies.admin)).body.code).toBe(0);
    const check = await call<{ goodsId: string; freeMaxChars: number | null }[]>(
      t,
      '/freeCheck/goodsList',
      {},
    );
    expect(check.data!.find((g) => g.goodsId === 'check_undergrad')?.freeMaxChars).toBe(8000);
    const none = { ...body, freeRule: null };
    expect((await calls.post('/goods/update', none, cookies.admin)).body.code).toBe(0);
    const after = await call<{ goodsId: string; freeMaxChars: number | null }[]>(
      t,
      '/freeCheck/goodsList',
      {},
    );
    expect(after.data!.find((g) => g.goodsId === 'check_undergrad')?.freeMaxChars).toBeNull();
  });

  it('unlisting hides goods from users and refuses new orders; listing brings them back', async () => {
    const off = await calls.post<AdminGoods>(
      '/goods/setActive',
      { goodsId: base.goodsId, active: false },
      cookies.admin,
    );
    expect(off.body).toMatchObject({
      code: 0,
      message: '商品已下架，用户将看不到也不能购买',
      data: { active: false },
    });
    expect((await publicGoods('tech_search'))!.some((g) => g.goodsId === base.goodsId)).toBe(false);
    const user = await newUser(t);
    await expect(
      t.orders.createOrder({
        userId: user.userId,
        serviceType: 'tech_search',
        goodsId: base.goodsId,
        quantity: 1,
        serviceRef: 'x',
      }),
    ).rejects.toMatchObject({ code: ErrorCode.GOODS_NOT_FOUND });
    const [audit] = await calls.auditRows('goods.setActive');
    expect(audit).toMatchObject({ before: { active: true }, after: { active: false } });
    await calls.post('/goods/setActive', { goodsId: base.goodsId, active: true }, cookies.admin);
    expect((await publicGoods('tech_search'))!.some((g) => g.goodsId === base.goodsId)).toBe(true);
  });

  it('sets the turnaround of a commissioned service, the days its commissions are then due in; refuses it elsewhere', async () => {
    const saved = await calls.post<AdminGoods>(
      '/goods/update',
      { ...base, turnaroundDays: 3 },
      cookies.admin,
    );
    expect(saved.body).toMatchObject({ code: 0, data: { turnaroundDays: 3 } });
    expect(await turnaroundDaysOf(t.db, base.goodsId)).toBe(3);
    const [audit] = await calls.auditRows('goods.update');
    expect(audit!.after).toMatchObject({ turnaroundDays: 3 });

    const onCheck = await calls.post(
      '/goods/update',
      {
        ...base,
        goodsId: 'check_undergrad',
        serviceType: 'check',
        unitSize: 1000,
        unit: '千字',
        maxQuantity: 300000,
        turnaroundDays: 2,
      },
      cookies.admin,
    );
    expect(onCheck.body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '只有委托办理的服务（检索报告、科技查新、文献下载、成果评价）可以设置办理时限',
    });
    for (const [days, message] of [
      [0, '办理时限不能少于1天'],
      [1.5, '办理时限须为整数天'],
      [366, '办理时限不能超过365天'],
    ] as const) {
      const bad = await calls.post('/goods/update', { ...base, turnaroundDays: days }, cookies.admin);
      expect(bad.body).toMatchObject({ code: ErrorCode.VALIDATION, message });
    }
    expect(await turnaroundDaysOf(t.db, base.goodsId)).toBe(3);

    const cleared = await calls.post<AdminGoods>(
      '/goods/update',
      { ...base, turnaroundDays: null },
      cookies.admin,
    );
    expect(cleared.body.data).toMatchObject({ turnaroundDays: null });
    expect(await turnaroundDaysOf(t.db, base.goodsId)).toBeNull();
  });

  it('goods sold in an order cannot be deleted (only unlisted); unused goods can', async () => {
    const used = await calls.post('/goods/delete', { goodsId: 'test_tech_search' }, cookies.admin);
    expect(used.body.code).toBe(ErrorCode.CONFLICT);
    expect(used.body.message).toMatch(/^已有 \d+ 个订单或任务使用该商品，不能删除；如需停售请下架$/);
    expect(await goodsRow('test_tech_search')).toBeDefined();
    const gone = await calls.post('/goods/delete', { goodsId: base.goodsId }, cookies.admin);
    expect(gone.body).toMatchObject({ code: 0, message: '商品已删除' });
    expect(await goodsRow(base.goodsId)).toBeUndefined();
    const again = await calls.post('/goods/delete', { goodsId: base.goodsId }, cookies.admin);
    expect(again.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '商品不存在' });
  });

  it('refuses every change to finance, support and editor, and every call without a session; refusals are recorded', async () => {
    for (const role of ['finance', 'support', 'editor'] as const) {
      for (const [path, body] of [
        ['/goods/create', { ...base, goodsId: 'x_forbidden' }],
        ['/goods/update', { ...base, goodsId: 'test_tech_search' }],
        ['/goods/setActive', { goodsId: 'check_undergrad', active: false }],
        ['/goods/delete', { goodsId: 'check_undergrad' }],
      ] as const) {
        expect((await calls.post(path, body, cookies[role])).body.code, `${role} ${path}`).toBe(
          ErrorCode.FORBIDDEN,
        );
      }
    }
    for (const role of ['support', 'editor'] as const) {
      expect((await calls.post('/goods/list', {}, cookies[role])).body.code).toBe(ErrorCode.FORBIDDEN);
    }
    expect((await calls.post('/goods/list', {}, undefined)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    const refused = (await calls.auditRows('goods.setActive')).filter(
      (r) => r.outcome === 'refused' && (r.detail as { reason?: string }).reason === 'role',
    );
    expect(refused.map((r) => r.username).sort()).toEqual(['goods-editor', 'goods-finance', 'goods-support']);
    expect((await goodsRow('check_undergrad'))!.active).toBe(true);
  });
});
