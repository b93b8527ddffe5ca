import { randomBytes } from 'node:crypto';
import { type AccountRequest, ErrorCode, type Page, type UserDetail } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { call, MINUTE, pw, qrCookieOf, registerUser, scan, sendCode } from '../accounts/accounts-helper.ts';
import { buildOrdersApp, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { admin: '', support: '', finance: '', editor: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'support', 'finance', 'editor'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `users-${role}`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

const idOf = async (token: string) =>
  (await call<{ id: string }>(t, '/getUserInfo', undefined, { token })).data.id;
const newOpenId = () => `o${randomBytes(20).toString('base64url').slice(0, 27)}`;

/** A WeChat QR login through the sandbox: the token, or the refusal's envelope. */
async function wechatLogin(openId: string) {
  const res = await t.app.inject({ method: 'POST', url: '/kyfw/web/v1/qrCode', headers: { terminal: 'PC' } });
  const qr = (res.json() as { data: { ticket: string; userId: string } }).data;
  const cookie = qrCookieOf(res.headers['set-cookie']);
  await scan(t, qr.ticket, openId);
  return call<{ userInfo: { token: string } }>(t, '/loginStatus', { userId: qr.userId }, { cookie });
}

const LOCKED =
  /^该账号已被锁定，暂时无法登录。如有疑问，请(致电客服 .+ 申诉，并提供账号绑定的手机号|通过页面底部的联系方式联系客服申诉)$/;

describe('users: lock and unlock', () => {
  it('a locked account cannot log in by password or WeChat, its sessions end; unlocking restores it', async () => {
    const { phone, token, password } = await registerUser(t);
    const userId = await idOf(token);
    const login = () => call<{ token: string }>(t, '/login', { phoneNumber: phone, passWord: pw(password) });

    const locked = await calls.post<UserDetail>(
      '/users/lock',
      { userId, reason: '多次恶意刷单' },
      cookies.admin,
    );
    expect(locked.body).toMatchObject({
      code: 0,
      message: '账号已锁定，其登录状态已全部失效',
      data: { userId, lockedReason: '多次恶意刷单' },
    });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
    const refused = await login();
    expect(refused.code).toBe(ErrorCode.ACCOUNT_LOCKED);
    expect(refused.message).toMatch(LOCKED);
    const sessions = await t.db
      .selectFrom('sessions')
      .select('revoke_reason')
      .where('user_id', '=', userId)
      .execute();
    expect(sessions.map((s) => s.revoke_reason)).toEqual(sessions.map(() => 'account_locked'));
    const [audit] = await calls.auditRows('users.lock');
    expect(audit).toMatchObject({
      username: 'users-admin',
      outcome: 'ok',
      target: userId,
      before: { lockedAt: null },
      after: { lockedReason: '多次恶意刷单' },
    });
    expect((await calls.post('/users/lock', { userId, reason: '再次' }, cookies.admin)).body).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '该账号已被锁定',
    });

    const unlocked = await calls.post<UserDetail>('/users/unlock', { userId }, cookies.admin);
    expect(unlocked.body).toMatchObject({
      code: 0,
      message: '账号已解锁，用户可以重新登录',
      data: { lockedAt: null },
    });
    const back = await login();
    expect(back.code).toBe(0);
    expect(await idOf(back.data.token)).toBe(userId);
    expect((await calls.post('/users/unlock', { userId }, cookies.admin)).body).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '该账号未被锁定',
    });
  });

  it('the WeChat login of a locked account is refused with the same message', async () => {
    const openId = newOpenId();
    const first = await wechatLogin(openId);
    expect(first.code).toBe(0);
    const userId = await idOf(first.data.userInfo.token);
    expect((await calls.post('/users/lock', { userId, reason: '盗号风险' }, cookies.admin)).body.code).toBe(
      0,
    );
    const again = await wechatLogin(openId);
    expect(again.code).toBe(ErrorCode.ACCOUNT_LOCKED);
    expect(again.message).toMatch(LOCKED);
  });

  it('refuses bad input and unknown users; support and others cannot lock', async () => {
    const { token } = await registerUser(t);
    const userId = await idOf(token);
    expect((await calls.post('/users/lock', { userId, reason: ' ' }, cookies.admin)).body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请填写锁定原因',
    });
    expect(
      (await calls.post('/users/lock', { userId, reason: '长'.repeat(201) }, cookies.admin)).body.message,
    ).toBe('锁定原因不能超过200个字');
    expect(
      (await calls.post('/users/lock', { userId: 'nope', reason: 'x' }, cookies.admin)).body,
    ).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '用户不存在',
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await calls.post('/users/lock', { userId: unknown, reason: 'x' }, cookies.admin)).body,
    ).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
      message: '用户不存在',
    });
    expect((await calls.post('/users/detail', { userId: unknown }, cookies.support)).body.code).toBe(
      ErrorCode.RESOURCE_NOT_FOUND,
    );
    for (const role of ['support', 'finance', 'editor'] as const) {
      expect((await calls.post('/users/lock', { userId, reason: 'x' }, cookies[role])).body.code).toBe(
        ErrorCode.FORBIDDEN,
      );
      expect((await calls.post('/users/unlock', { userId }, cookies[role])).body.code).toBe(
        ErrorCode.FORBIDDEN,
      );
    }
    for (const role of ['finance', 'editor'] as const) {
      expect((await calls.post('/users/detail', { userId }, cookies[role])).body.code).toBe(
        ErrorCode.FORBIDDEN,
      );
      expect((await calls.post('/users/requests', {}, cookies[role])).body.code).toBe(ErrorCode.FORBIDDEN);
    }
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);
  });
});

describe('users: entitlements and export/deletion requests', () => {
  it('shows the free uses and records each data export and account deletion (no personal data kept)', async () => {
    const { phone, token } = await registerUser(t);
    const userId = await idOf(token);
    const detail = await calls.post<UserDetail>('/users/detail', { userId }, cookies.support);
    expect(detail.body.code).toBe(0);
    expect(detail.body.data!.entitlements.map((e) => [e.kindText, e.usedAt])).toEqual(
      expect.arrayContaining([
        ['免费查重', null],
        ['免费AIGC检测', null],
        ['AI写作试用', null],
      ]),
    );
    expect(detail.body.data!.requests).toEqual([]);

    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token, terminal: 'PC', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(exported.statusCode).toBe(200);
    const afterExport = await calls.post<UserDetail>('/users/detail', { userId }, cookies.support);
    expect(afterExport.body.data!.requests).toMatchObject([
      { kind: 'export', kindText: '导出个人数据', phone },
    ]);

    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(0);
    const all = await calls.post<Page<AccountRequest>>('/users/requests', { pageSize: 50 }, cookies.support);
    const mine = all.body.data!.list.filter((r) => r.userId === userId);
    expect(mine.map((r) => [r.kind, r.phone])).toEqual([
      ['deletion', null],
      ['export', null],
    ]);
    const row = await t.db.selectFrom('account_requests').selectAll().where('user_id', '=', userId).execute();
    expect(Object.keys(row[0]!).sort()).toEqual(['id', 'kind', 'requested_at', 'user_id']);
    const deletions = await calls.post<Page<AccountRequest>>(
      '/users/requests',
      { kind: 'deletion' },
      cookies.admin,
    );
    expect(deletions.body.data!.list.every((r) => r.kind === 'deletion')).toBe(true);
    expect((await calls.post('/users/requests', { kind: 'spam' }, cookies.admin)).body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请求类型不存在',
    });
  });
});
