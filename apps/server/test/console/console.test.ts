import { ErrorCode, type StaffRoleName } from '@kyfw/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit, cliActor } from '../../src/audit/index.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { totpCode } from '../../src/modules/console/totp.ts';
import {
  buildOrdersApp,
  type Envelope,
  MINUTE,
  newOrder,
  newUser,
  type OrdersTestApp,
  orderRow,
  SECOND,
  uploadOfflineProof,
} from '../orders/orders-helper.ts';

let t: OrdersTestApp;
const accounts = new Map<StaffRoleName, { username: string; password: string; totpSecret: string }>();
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

beforeAll(async () => {
  t = await buildOrdersApp();
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'finance', 'fulfilment', 'editor', 'support'] as const) {
    accounts.set(role, await staff.create({ username: `${role}1`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

async function post<T>(path: string, body: unknown, cookie?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin${path}`,
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
  return { res, body: res.json() as Envelope<T> };
}

/** Logs in as the role's account with the code its authenticator shows now (a fresh 30 s step). */
async function login(role: StaffRoleName): Promise<string> {
  t.clock.advance(31 * SECOND);
  const account = accounts.get(role)!;
  const { res, body } = await post('/auth/login', {
    username: account.username,
    password: account.password,
    totpCode: totpCode(account.totpSecret, t.clock.now()),
  });
  expect(body.code).toBe(0);
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(/kyfw_admin=[0-9a-f]{64}/);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  return setCookie.split(';')[0]!;
}

async function auditRows(action: string) {
  return t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .execute();
}

describe('staff login', () => {
  it('refuses a wrong TOTP code and a wrong password alike, and records both', async () => {
    const account = accounts.get('support')!;
    t.clock.advance(31 * SECOND);
    const wrongCode = await post('/auth/login', {
      username: account.username,
      password: account.password,
      totpCode: '000000',
    });
    expect(wrongCode.body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect(wrongCode.body.message).toBe('用户名、密码或动态验证码错误');
    expect(wrongCode.res.headers['set-cookie']).toBeUndefined();
    const wrongPassword = await post('/auth/login', {
      username: account.username,
      password: 'not-the-password',
      totpCode: totpCode(account.totpSecret, t.clock.now()),
    });
    expect(wrongPassword.body.message).toBe('用户名、密码或动态验证码错误');
    const refused = (await auditRows('auth.login')).filter((r) => r.outcome === 'refused');
    expect(refused.map((r) => (r.detail as { reason: string }).reason)).toEqual(
      expect.arrayContaining(['wrong totp', 'wrong password']),
    );
    expect(refused[0]!.username).toBe('support1');
    // A successful login resets the failure count.
    await login('support');
  });

  it('a code is not accepted twice, and malformed codes are refused before any check', async () => {
    const account = accounts.get('editor')!;
    t.clock.advance(31 * SECOND);
    const code = totpCode(account.totpSecret, t.clock.now());
    const first = await post('/auth/login', {
      username: account.username,
      password: account.password,
      totpCode: code,
    });
    expect(first.body.code).toBe(0);
    const replay = await post('/auth/login', {
      username: account.username,
      password: account.password,
      totpCode: code,
    });
    expect(replay.body.code).toBe(ErrorCode.UNAUTHORIZED);
    const malformed = await post('/auth/login', {
      username: account.username,
      password: account.password,
      totpCode: '12ab',
    });
    expect(malformed.body.code).toBe(ErrorCode.VALIDATION);
    expect(malformed.body.message).toBe('动态验证码为6位数字（或输入一个恢复码）');
  });

  it('locks the account after five failures, even for the right code, until the lock ends', async () => {
    const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
    const victim = await staff.create({ username: 'locked1', role: 'finance' });
    for (let i = 0; i < 5; i++) {
      await post('/auth/login', { username: 'locked1', password: 'wrong', totpCode: '123456' });
    }
    t.clock.advance(31 * SECOND);
    const right = {
      username: 'locked1',
      password: victim.password,
      totpCode: totpCode(victim.totpSecret, t.clock.now()),
    };
    const locked = await post('/auth/login', right);
    expect(locked.body.code).toBe(ErrorCode.LOGIN_LOCKED);
    expect(locked.body.message).toMatch(/账号已锁定，请\d+分钟后再试/);
    t.clock.advance(16 * MINUTE);
    const after = await post('/auth/login', {
      ...right,
      totpCode: totpCode(victim.totpSecret, t.clock.now()),
    });
    expect(after.body.code).toBe(0);
  });

  it('a session ends after 30 minutes without a call; the refusal is recorded', async () => {
    const cookie = await login('fulfilment');
    expect((await post('/auth/me', {}, cookie)).body).toMatchObject({
      code: 0,
      data: { username: 'fulfilment1', roleText: '履约' },
    });
    t.clock.advance(29 * MINUTE);
    expect((await post('/dashboard', {}, cookie)).body.code).toBe(0);
    t.clock.advance(29 * MINUTE);
    expect((await post('/dashboard', {}, cookie)).body.code).toBe(0);
    t.clock.advance(31 * MINUTE);
    const expired = await post('/dashboard', {}, cookie);
    expect(expired.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '登录已过期，请重新登录' });
    const [row] = await auditRows('dashboard.view');
    expect(row).toMatchObject({ outcome: 'refused', detail: { reason: 'session expired' } });
  });

  it('no cookie, a forged cookie and a logged-out session are refused', async () => {
    expect((await post('/dashboard', {})).body).toMatchObject({
      code: ErrorCode.UNAUTHORIZED,
      message: '请先登录运营后台',
    });
    const forged = `kyfw_admin=${'ab'.repeat(32)}`;
    expect((await post('/dashboard', {}, forged)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    const cookie = await login('editor');
    expect((await post('/auth/logout', {}, cookie)).body.code).toBe(0);
    expect((await post('/auth/me', {}, cookie)).body.code).toBe(ErrorCode.UNAUTHORIZED);
  });
});

describe('roles', () => {
  it('every role sees the dashboard: days, queues, failed jobs', async () => {
    for (const role of accounts.keys()) {
      const { body } = await post<{ days: unknown[]; queues: Record<string, number> }>(
        '/dashboard',
        { days: 7 },
        await login(role),
      );
      expect(body.code).toBe(0);
      expect(body.data.days).toHaveLength(7);
      expect(Object.keys(body.data.queues)).toContain('pendingProofs');
    }
  });

  it('an editor cannot read orders; support cannot confirm a payment or refund; only admin reads the audit log', async () => {
    const editor = await login('editor');
    const search = await post('/orders/search', {}, editor);
    expect(search.body).toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(search.body.message).toBe('当前角色（编辑）无权执行此操作，需要：管理员、财务、履约、客服');
    const support = await login('support');
    expect((await post('/offline/confirm', { proofId: 'x' }, support)).body.code).toBe(ErrorCode.FORBIDDEN);
    expect(
      (
        await post(
          '/refunds/create',
          { orderNo: 'KY00000000000000000000', amountFen: 100, reason: 'x' },
          support,
        )
      ).body.message,
    ).toBe('当前角色（客服）无权执行此操作，需要：管理员、财务');
    expect((await post('/audit/list', {}, await login('finance'))).body.code).toBe(ErrorCode.FORBIDDEN);
    const refusals = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('outcome', '=', 'refused')
      .where('action', 'in', ['orders.search', 'offline.confirm', 'refund.create', 'audit.list'])
      .execute();
    expect(refusals.map((r) => `${r.username}:${r.action}`)).toEqual(
      expect.arrayContaining([
        'editor1:orders.search',
        'support1:offline.confirm',
        'support1:refund.create',
        'finance1:audit.list',
      ]),
    );
  });
});

describe('offline payments, orders and refunds', () => {
  it('finance sees the proof, confirms it: the order is paid, the audit log has before/after', async () => {
    const user = await newUser(t);
    const order = await newOrder(t, user.userId, 5_000);
    const uploaded = await uploadOfflineProof(t, user.token, order.orderId, PNG);
    expect(uploaded.code).toBe(0);
    const finance = await login('finance');
    const proofs = await post<{ proofId: string; orderNo: string; amount: string }[]>(
      '/offline/proofs',
      {},
      finance,
    );
    const proof = proofs.body.data.find((p) => p.orderNo === order.orderNo)!;
    expect(proof.amount).toBe('10.00');
    const file = await t.app.inject({
      method: 'GET',
      url: `/kyfw/web/v1/admin/offline/proofFile?proofId=${proof.proofId}`,
      headers: { cookie: finance },
    });
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);

    // Support finds the order (by phone too) and sees it waiting; it cannot confirm it.
    const support = await login('support');
    const phone = (
      await t.db
        .selectFrom('users')
        .select('phone_number')
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow()
    ).phone_number;
    const found = await post<{ list: { orderNo: string; offlinePending: boolean }[]; total: number }>(
      '/orders/search',
      { phone, status: 'pending_payment' },
      support,
    );
    expect(found.body.data.list).toMatchObject([{ orderNo: order.orderNo, offlinePending: true }]);

    const confirmed = await post<{ outcome: string; orderNo: string }>(
      '/offline/confirm',
      { proofId: proof.proofId, note: '已到账' },
      finance,
    );
    expect(confirmed.body).toMatchObject({ code: 0, data: { outcome: 'paid', orderNo: order.orderNo } });
    expect((await orderRow(t, order.orderId)).status).toBe('paid');
    const again = await post('/offline/confirm', { proofId: proof.proofId }, finance);
    expect(again.body).toMatchObject({ code: ErrorCode.CONFLICT, message: '该凭证已处理' });
    const [ok, failed] = [
      (await auditRows('offline.confirm')).find((r) => r.outcome === 'ok')!,
      (await auditRows('offline.confirm')).find((r) => r.outcome === 'failed')!,
    ];
    expect(ok).toMatchObject({
      username: 'finance1',
      role: 'finance',
      target: order.orderNo,
      after: { proof: 'confirmed' },
    });
    expect(ok.ip).toBeTruthy();
    expect(failed.detail).toMatchObject({ code: ErrorCode.CONFLICT });

    // The detail shows the payment; finance refunds part of it with a reason.
    const detail = await post<{ payments: { channel: string }[]; phone: string }>(
      '/orders/detail',
      { orderNo: order.orderNo },
      support,
    );
    expect(detail.body.data).toMatchObject({ phone, payments: [{ channel: 'offline' }] });
    const refund = await post<{ amountFen: number; status: string }>(
      '/refunds/create',
      { orderNo: order.orderNo, amountFen: 300, reason: '部分退款' },
      finance,
    );
    expect(refund.body).toMatchObject({ code: 0, data: { amountFen: 300 } });
    const bad = await post(
      '/refunds/create',
      { orderNo: order.orderNo, amountFen: 300, reason: '' },
      finance,
    );
    expect(bad.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '请填写退款原因' });
  });

  it('finance rejects a proof with a reason; the order may be paid again', async () => {
    const user = await newUser(t);
    const order = await newOrder(t, user.userId, 3_000);
    await uploadOfflineProof(t, user.token, order.orderId, PNG);
    const finance = await login('finance');
    const proofs = await post<{ proofId: string; orderNo: string }[]>('/offline/proofs', {}, finance);
    const proof = proofs.body.data.find((p) => p.orderNo === order.orderNo)!;
    expect((await post('/offline/reject', { proofId: proof.proofId }, finance)).body.message).toBe(
      '请填写驳回原因',
    );
    expect(
      (await post('/offline/reject', { proofId: proof.proofId, reason: '未查到该笔转账' }, finance)).body
        .code,
    ).toBe(0);
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');
  });
});

describe('audit log', () => {
  it('admin filters it by user and outcome; the database refuses to change or delete a row', async () => {
    const admin = await login('admin');
    const list = await post<{
      list: { username: string; outcome: string; actionText: string }[];
      total: number;
    }>('/audit/list', { username: 'support1', outcome: 'refused' }, admin);
    expect(list.body.data.total).toBeGreaterThan(0);
    expect(list.body.data.list.every((r) => r.username === 'support1' && r.outcome === 'refused')).toBe(true);
    await expect(sql`update audit_log set outcome = 'ok'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
  });

  it('keeps input mistakes apart from refusals, writes nothing when read, pages steadily and names the command line', async () => {
    type Listed = {
      list: { id: string; username: string | null; role: string | null; roleText: string; outcome: string }[];
      total: number;
    };
    const admin = await login('admin');
    const support = await login('support');
    // An input mistake (a malformed order number) and a permission refusal (support refunds).
    expect((await post('/orders/detail', { orderNo: '' }, support)).body.code).toBe(ErrorCode.VALIDATION);
    expect(
      (await post('/refunds/create', { orderNo: 'KY1', amount: 1, reason: 'x' }, support)).body.code,
    ).toBe(ErrorCode.FORBIDDEN);
    const invalid = await post<Listed>('/audit/list', { username: 'support1', outcome: 'invalid' }, admin);
    expect(invalid.body.data.total).toBeGreaterThan(0);
    expect(invalid.body.data.list.every((r) => r.outcome === 'invalid')).toBe(true);
    const refused = await post<Listed>('/audit/list', { username: 'support1', outcome: 'refused' }, admin);
    expect(refused.body.data.list.every((r) => r.outcome === 'refused')).toBe(true);
    expect((await auditRows('orders.detail')).find((r) => r.username === 'support1')).toMatchObject({
      outcome: 'invalid',
      detail: { reason: 'invalid input' },
    });

    // Reading the log writes nothing: the total stays and page 2 follows page 1 without repeats.
    const rows = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(t.db)).rows[0]!.n);
    const before = await rows();
    const first = await post<Listed>('/audit/list', { pageSize: 5 }, admin);
    const second = await post<Listed>(
      '/audit/list',
      { page: 2, pageSize: 5, beforeId: first.body.data.list[0]!.id },
      admin,
    );
    expect(await rows()).toBe(before);
    expect(first.body.data.total).toBe(second.body.data.total);
    const ids = [...first.body.data.list, ...second.body.data.list].map((r) => Number(r.id));
    expect(new Set(ids).size).toBe(10);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // Someone acts meanwhile: with beforeId, page 2 is still the same rows.
    await post('/dashboard', {}, support);
    const again = await post<Listed>(
      '/audit/list',
      { page: 2, pageSize: 5, beforeId: first.body.data.list[0]!.id },
      admin,
    );
    expect(again.body.data.list.map((r) => r.id)).toEqual(second.body.data.list.map((r) => r.id));
    // A refused read is still written.
    expect((await post('/audit/list', {}, support)).body.code).toBe(ErrorCode.FORBIDDEN);
    expect(await rows()).toBe(before + 2);

    // A command-line row (npm run operator) shows its 操作人 and 命令行; an old one without a name too.
    await appendAudit(t.db, {
      ...cliActor(),
      staffId: null,
      action: 'staff.create',
      outcome: 'ok',
      target: 'newbie',
      detail: { via: 'cli' },
      ip: null,
      userAgent: null,
      at: t.clock.now(),
    });
    await sql`insert into audit_log (action, outcome, target, detail) values ('staff.create', 'ok', 'old', '{"via":"cli"}')`.execute(
      t.db,
    );
    const cli = await post<Listed>('/audit/list', { action: 'staff.create', pageSize: 2 }, admin);
    const [old, named] = cli.body.data.list;
    expect(named).toMatchObject({ role: 'cli', roleText: '命令行' });
    expect(named!.username).toMatch(/^cli:.+/);
    expect(old).toMatchObject({ username: 'cli', role: 'cli', roleText: '命令行' });
  });
});
