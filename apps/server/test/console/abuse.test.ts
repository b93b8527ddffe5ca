import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, MINUTE, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

// Issue 15's "bad input and abuse": each refusal answers a clear message and is one audit_log row
// (wrong TOTP, expired session and another role's endpoint are in console.test.ts and staff.test.ts;
// a token outside its scopes in operator-token.test.ts). Here: forged sessions and identities.

type Account = { username: string; password: string; totpSecret: string };

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const accounts: Record<'admin' | 'support', Account> = {} as never;

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  accounts.admin = await staff.create({ username: 'abuse_admin', role: 'admin' });
  accounts.support = await staff.create({ username: 'abuse_support', role: 'support' });
});

afterAll(async () => {
  await t.close();
});

async function lastRow(action: string) {
  return (await calls.auditRows(action))[0];
}

async function staffId(username: string) {
  const row = await t.db
    .selectFrom('staff_accounts')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('forged sessions', () => {
  it('a made-up session cookie is refused (请先登录运营后台) and recorded with no one named', async () => {
    const forged = await calls.post('/staff/list', {}, `kyfw_admin=${'c0'.repeat(32)}`);
    expect(forged.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '请先登录运营后台' });
    expect(await lastRow('staff.list')).toMatchObject({
      outcome: 'refused',
      staff_id: null,
      username: null,
      detail: { reason: 'unknown session' },
      ip: '127.0.0.1',
    });
    const malformed = await calls.post('/staff/list', {}, "kyfw_admin=admin' or 1=1");
    expect(malformed.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '请先登录运营后台' });
    expect(await lastRow('staff.list')).toMatchObject({
      outcome: 'refused',
      detail: { reason: 'malformed session' },
    });
  });

  it('the session of an account disabled since is refused at once (its sessions are gone) and recorded', async () => {
    const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
    const leaver = await staff.create({ username: 'abuse_leaver', role: 'finance' });
    const cookie = await calls.cookieOf(leaver);
    const admin = await calls.cookieOf(accounts.admin);
    const id = await staffId('abuse_leaver');
    expect((await calls.post('/staff/update', { staffId: id, disabled: true }, admin)).body.code).toBe(0);
    const refused = await calls.post('/dashboard', {}, cookie);
    expect(refused.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '请先登录运营后台' });
    expect(await lastRow('dashboard.view')).toMatchObject({
      outcome: 'refused',
      detail: { reason: 'unknown session' },
    });
    expect(
      await t.db.selectFrom('staff_sessions').select('token_hash').where('staff_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('a session kept busy still ends 12 hours after its login (登录已过期), recorded', async () => {
    const cookie = await calls.cookieOf(accounts.support);
    for (let minutes = 0; minutes < 12 * 60 - 29; minutes += 29) {
      t.clock.advance(29 * MINUTE);
      expect((await calls.post('/dashboard', {}, cookie)).body.code).toBe(0);
    }
    t.clock.advance(29 * MINUTE);
    const expired = await calls.post('/dashboard', {}, cookie);
    expect(expired.body).toMatchObject({ code: ErrorCode.UNAUTHORIZED, message: '登录已过期，请重新登录' });
    expect(await lastRow('dashboard.view')).toMatchObject({
      outcome: 'refused',
      staff_id: await staffId('abuse_support'),
      detail: { reason: 'session expired' },
    });
  });
});

describe('forged operator ids', () => {
  it('who acts is the session, never the body: a support claiming to be the admin is refused as support', async () => {
    const support = await calls.cookieOf(accounts.support);
    const claim = { staffId: await staffId('abuse_admin'), username: 'abuse_admin', role: 'admin' };
    const refused = await calls.post('/staff/list', claim, support);
    expect(refused.body).toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: '当前角色（客服）无权执行此操作，需要：管理员',
    });
    expect(await lastRow('staff.list')).toMatchObject({
      outcome: 'refused',
      username: 'abuse_support',
      role: 'support',
      detail: { reason: 'role' },
    });
    // An allowed call with the same claim is done and recorded as the support account.
    expect((await calls.post('/dashboard', claim, support)).body.code).toBe(0);
    expect(await lastRow('dashboard.view')).toMatchObject({
      outcome: 'ok',
      username: 'abuse_support',
      role: 'support',
    });
  });

  it('a staff id that is not one, or names no account, is refused with a clear message and recorded', async () => {
    const admin = await calls.cookieOf(accounts.admin);
    const malformed = await calls.post('/staff/update', { staffId: 'abuse_support', disabled: true }, admin);
    expect(malformed.body.code).toBe(ErrorCode.VALIDATION);
    expect(malformed.body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(await lastRow('staff.update')).toMatchObject({
      outcome: 'invalid',
      username: 'abuse_admin',
      detail: { reason: 'invalid input', code: ErrorCode.VALIDATION, message: malformed.body.message },
    });
    const unknown = await calls.post(
      '/staff/resetTotp',
      { staffId: '00000000-0000-4000-8000-0000000000aa' },
      admin,
    );
    expect(unknown.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '运营账号不存在' });
    expect(await lastRow('staff.reset2fa')).toMatchObject({
      outcome: 'failed',
      username: 'abuse_admin',
      detail: { code: ErrorCode.RESOURCE_NOT_FOUND, message: '运营账号不存在' },
    });
    // Nothing changed: the support account still logs in.
    expect((await calls.login(accounts.support)).body.code).toBe(0);
  });
});

describe('calls made by a page of another site', () => {
  const ORIGIN_REFUSED = '请求来自其他网站，运营后台已拒绝；请在本站的运营后台页面内操作';

  it('a forged Origin or Sec-Fetch-Site: cross-site is refused (1004) and changes nothing', async () => {
    const admin = await calls.cookieOf(accounts.admin);
    const id = await staffId('abuse_support');
    const before = await calls.auditRows('staff.update');
    const forged: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of forged) {
      const refused = await calls.post('/staff/update', { staffId: id, disabled: true }, admin, headers);
      expect(refused.body).toMatchObject({ code: ErrorCode.FORBIDDEN, message: ORIGIN_REFUSED });
    }
    // A login from another site is refused too: it sets no cookie.
    const login = await calls.post('/auth/login', { username: 'abuse_admin' }, undefined, {
      origin: 'https://evil.example',
    });
    expect(login.body).toMatchObject({ code: ErrorCode.FORBIDDEN, message: ORIGIN_REFUSED });
    expect(login.res.headers['set-cookie']).toBeUndefined();
    // No handler ran: no audit row, and the support account is not disabled (it still logs in).
    expect(await calls.auditRows('staff.update')).toHaveLength(before.length);
    expect((await calls.login(accounts.support)).body.code).toBe(0);
  });

  it('the same origin (the public address, the host asked, or Sec-Fetch-Site: same-origin) and no Origin at all are served', async () => {
    const admin = await calls.cookieOf(accounts.admin);
    const same: Record<string, string>[] = [
      { origin: 'http://127.0.0.1:3000' },
      { origin: 'http://localhost' },
      { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-origin' },
      { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-site' },
      {},
    ];
    for (const headers of same) {
      const served = await calls.post('/dashboard', {}, admin, headers);
      expect(served.body.code).toBe(0);
    }
  });
});
