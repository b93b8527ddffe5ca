import { ErrorCode, type StaffAccount, type StaffSecrets } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
let admin: { username: string; password: string; totpSecret: string };
let adminCookie: string;

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  // The first admin comes from the command line's service (here without the server's key: its
  // secret is stored as before migration 0030 and sealed by the server at its first login).
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  admin = await staff.create({ username: 'root1', role: 'admin' });
  adminCookie = await calls.cookieOf(admin);
});

afterAll(async () => {
  await t.close();
});

async function create(username: string, role: StaffAccount['role']) {
  const { body } = await calls.post<StaffSecrets>('/staff/create', { username, role }, adminCookie);
  expect(body.code).toBe(0);
  const s = body.data!;
  return { username: s.username, password: s.password!, totpSecret: s.totpSecret, codes: s.recoveryCodes };
}

async function staffRow(username: string) {
  return t.db
    .selectFrom('staff_accounts')
    .selectAll()
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
}

describe('staff accounts created in the console', () => {
  it('shows the password, TOTP secret and ten recovery codes once; stores none of them in clear', async () => {
    const { body } = await calls.post<StaffSecrets>(
      '/staff/create',
      { username: 'lihua', role: 'finance' },
      adminCookie,
    );
    expect(body.code).toBe(0);
    const s = body.data!;
    expect(s.password).toMatch(/^[a-z0-9]{20}$/);
    expect(s.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(s.otpauthUri).toBe(`otpauth://totp/kyfw:lihua?secret=${s.totpSecret}&issuer=kyfw`);
    expect(s.recoveryCodes).toHaveLength(10);
    expect(new Set(s.recoveryCodes).size).toBe(10);
    for (const code of s.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const row = await staffRow('lihua');
    expect(row.totp_secret.startsWith('enc1:')).toBe(true);
    expect(row.totp_secret).not.toContain(s.totpSecret);
    expect(row.created_by).toBe('root1');
    const digests = await t.db
      .selectFrom('staff_recovery_codes')
      .selectAll()
      .where('staff_id', '=', row.id)
      .execute();
    expect(digests).toHaveLength(10);
    const stored = JSON.stringify(digests);
    for (const code of s.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }

    const [audit] = await calls.auditRows('staff.create');
    expect(audit).toMatchObject({
      username: 'root1',
      outcome: 'ok',
      target: 'lihua',
      after: { role: 'finance' },
    });
    const written = JSON.stringify(audit);
    expect(written).not.toContain(s.password!);
    expect(written).not.toContain(s.totpSecret);
    expect(written).not.toContain(s.recoveryCodes[0]!);

    // The new account logs in with its authenticator, and the list shows it.
    const login = await calls.login({ username: 'lihua', password: s.password!, totpSecret: s.totpSecret });
    expect(login.body).toMatchObject({ code: 0, data: { role: 'finance', roleText: '财务' } });
    const list = await calls.post<StaffAccount[]>('/staff/list', {}, adminCookie);
    expect(list.body.data!.find((a) => a.username === 'lihua')).toMatchObject({
      role: 'finance',
      roleText: '财务',
      disabled: false,
      createdBy: 'root1',
      recoveryCodesLeft: 10,
    });
    expect(JSON.stringify(list.body.data)).not.toMatch(/totp|password|secret/i);
  });

  it('the first admin’s clear secret was sealed at its login, and the login still works', async () => {
    const row = await staffRow('root1');
    expect(row.totp_secret.startsWith('enc1:')).toBe(true);
    expect(row.totp_secret).not.toContain(admin.totpSecret);
    expect((await calls.login(admin)).body.code).toBe(0);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const taken = await calls.post('/staff/create', { username: 'root1', role: 'finance' }, adminCookie);
    expect(taken.body).toMatchObject({ code: ErrorCode.CONFLICT, message: '用户名 root1 已存在' });
    const badName = await calls.post('/staff/create', { username: 'A!', role: 'finance' }, adminCookie);
    expect(badName.body).toMatchObject({ code: ErrorCode.VALIDATION });
    expect(badName.body.message).toContain('用户名须以小写字母开头');
    const badRole = await calls.post('/staff/create', { username: 'wangwu', role: 'boss' }, adminCookie);
    expect(badRole.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '角色不正确' });
    expect(
      await t.db
        .selectFrom('staff_accounts')
        .select('id')
        .where('username', '=', 'wangwu')
        .executeTakeFirst(),
    ).toBeUndefined();
    const nothing = await calls.post('/staff/update', { staffId: (await staffRow('lihua')).id }, adminCookie);
    expect(nothing.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '没有要修改的内容' });
    const unknown = await calls.post(
      '/staff/update',
      { staffId: '00000000-0000-4000-8000-000000000000', disabled: true },
      adminCookie,
    );
    expect(unknown.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '运营账号不存在' });
    const self = await calls.post(
      '/staff/update',
      { staffId: (await staffRow('root1')).id, disabled: true },
      adminCookie,
    );
    expect(self.body).toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: '不能停用自己的账号或修改自己的角色',
    });
    expect((await staffRow('root1')).disabled).toBe(false);
  });

  it('every other role is refused each staff endpoint, and the refusals are recorded', async () => {
    for (const role of ['finance', 'fulfilment', 'editor', 'support'] as const) {
      const account = await create(`other_${role}`, role);
      const cookie = await calls.cookieOf(account);
      const target = (await staffRow('lihua')).id;
      for (const [path, body] of [
        ['/staff/list', {}],
        ['/staff/create', { username: `made_by_${role}`, role: 'admin' }],
        ['/staff/update', { staffId: target, role: 'admin' }],
        ['/staff/resetTotp', { staffId: target }],
      ] as const) {
        const refused = await calls.post(path, body, cookie);
        expect(refused.body.code, `${role} ${path}`).toBe(ErrorCode.FORBIDDEN);
        expect(refused.body.message).toContain('需要：管理员');
      }
    }
    expect((await staffRow('lihua')).role).toBe('finance');
    const refused = (await calls.auditRows('staff.reset2fa')).filter((r) => r.outcome === 'refused');
    expect(refused.map((r) => r.role).sort()).toEqual(['editor', 'finance', 'fulfilment', 'support']);
  });
});

describe('recovery codes', () => {
  it('a recovery code logs in instead of a TOTP code, once', async () => {
    const account = await create('zhaoliu', 'support');
    const code = account.codes[3]!;
    const first = await calls.login(account, code.toUpperCase());
    expect(first.body.code).toBe(0);
    const again = await calls.login(account, code);
    expect(again.body).toMatchObject({
      code: ErrorCode.UNAUTHORIZED,
      message: '用户名、密码或动态验证码错误',
    });
    const wrong = await calls.login(account, 'abcde-fghjk');
    expect(wrong.body.code).toBe(ErrorCode.UNAUTHORIZED);
    const rows = await calls.auditRows('auth.login');
    expect(rows.find((r) => r.username === 'zhaoliu' && r.outcome === 'ok')).toMatchObject({
      detail: { secondFactor: 'recovery code' },
    });
    expect(
      rows
        .filter((r) => r.username === 'zhaoliu' && r.outcome === 'refused')
        .map((r) => (r.detail as { reason: string }).reason),
    ).toEqual(['wrong recovery code', 'wrong recovery code']);
    const list = await calls.post<StaffAccount[]>('/staff/list', {}, adminCookie);
    expect(list.body.data!.find((a) => a.username === 'zhaoliu')!.recoveryCodesLeft).toBe(9);
  });
});

describe('disable, change role, reset two-step verification', () => {
  it('disabling ends the sessions at once and refuses the next login; enabling lets it in again', async () => {
    const account = await create('sunqi', 'finance');
    const cookie = await calls.cookieOf(account);
    const { id } = await staffRow('sunqi');
    const disabled = await calls.post<StaffAccount>(
      '/staff/update',
      { staffId: id, disabled: true },
      adminCookie,
    );
    expect(disabled.body).toMatchObject({ code: 0, message: '账号已更新', data: { disabled: true } });
    expect((await calls.post('/dashboard', {}, cookie)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await calls.login(account)).body).toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: '该账号已停用',
    });
    const [audit] = await calls.auditRows('staff.update');
    expect(audit).toMatchObject({
      target: 'sunqi',
      before: { role: 'finance', disabled: false },
      after: { role: 'finance', disabled: true },
    });
    await calls.post('/staff/update', { staffId: id, disabled: false }, adminCookie);
    expect((await calls.login(account)).body.code).toBe(0);
  });

  it('a new role applies to the open session: support can no longer refund', async () => {
    const account = await create('zhouba', 'finance');
    const cookie = await calls.cookieOf(account);
    const { id } = await staffRow('zhouba');
    const changed = await calls.post<StaffAccount>(
      '/staff/update',
      { staffId: id, role: 'support' },
      adminCookie,
    );
    expect(changed.body.data).toMatchObject({ role: 'support', roleText: '客服' });
    const refund = await calls.post(
      '/refunds/create',
      { orderNo: `KY${'1'.repeat(20)}`, amountFen: 100, reason: '测试' },
      cookie,
    );
    expect(refund.body).toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(refund.body.message).toContain('当前角色（客服）');
  });

  it('a reset gives a new secret and codes; the old authenticator and codes stop working', async () => {
    const account = await create('wujiu', 'editor');
    const cookie = await calls.cookieOf(account);
    const { id } = await staffRow('wujiu');
    const reset = await calls.post<StaffSecrets>('/staff/resetTotp', { staffId: id }, adminCookie);
    expect(reset.body).toMatchObject({ code: 0, message: '两步验证已重置，旧的验证器与恢复码已失效' });
    const fresh = reset.body.data!;
    expect(fresh.password).toBeUndefined();
    expect(fresh.totpSecret).not.toBe(account.totpSecret);
    expect((await calls.post('/auth/me', {}, cookie)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await calls.login(account)).body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await calls.login(account, account.codes[0])).body.code).toBe(ErrorCode.UNAUTHORIZED);
    const next = { ...account, totpSecret: fresh.totpSecret };
    expect((await calls.login(next)).body.code).toBe(0);
    expect((await calls.login(next, fresh.recoveryCodes[0])).body.code).toBe(0);
    const [audit] = await calls.auditRows('staff.reset2fa');
    expect(audit).toMatchObject({ outcome: 'ok', target: 'wujiu' });
    expect(JSON.stringify(audit)).not.toContain(fresh.totpSecret);
  });
});
