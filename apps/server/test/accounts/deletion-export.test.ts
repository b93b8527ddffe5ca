import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  MINUTE,
  pw,
  qrCookieOf,
  registerUser,
  scan,
  sendCode,
} from './accounts-helper.ts';

let t: AccountsTestApp;
/** What the "orders" hook saw: the user ids it was asked to de-identify. */
const deidentified: string[] = [];
const refuseDeletionOf = new Set<string>();

beforeAll(async () => {
  t = await buildAccountsApp();
  const hooks = t.root.services.accounts.hooks;
  hooks.onDeletion('test-orders', async (tx, userId) => {
    if (refuseDeletionOf.has(userId)) throw new Error('orders of this account are still being paid');
    // Runs inside the deletion's transaction: the account still holds its data here.
    const row = await tx
      .selectFrom('users')
      .select('status')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    deidentified.push(userId);
  });
  hooks.addExportSection('orders', async (_db, userId) => [{ orderNo: `T-${userId.slice(0, 8)}` }]);
});
afterAll(() => t.close());

const newOpenId = () => `o${randomBytes(20).toString('base64url').slice(0, 27)}`;

async function idOf(token: string): Promise<string> {
  return (await call<{ id: string }>(t, '/getUserInfo', undefined, { token })).data.id;
}

async function wechatLogin(openId: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/kyfw/web/v1/qrCode', headers: { terminal: 'PC' } });
  const qr = (res.json() as { data: { ticket: string; userId: string } }).data;
  const cookie = qrCookieOf(res.headers['set-cookie']);
  await scan(t, qr.ticket, openId);
  return (await call<{ userInfo: { token: string } }>(t, '/loginStatus', { userId: qr.userId }, { cookie }))
    .data.userInfo.token;
}

describe('account deletion by SMS code', () => {
  it('erases the personal data, ends the sessions, frees the phone, de-identifies through the hooks', async () => {
    const { phone, token, password } = await registerUser(t);
    const userId = await idOf(token);
    await call(t, '/websiteUser/updateUserInfo', { realName: '李四', unitName: '清华大学' }, { token });
    const second = (
      await call<{ token: string }>(t, '/login', { phoneNumber: phone, passWord: pw(password) })
    ).data.token;
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '4', { token });

    const res = await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token });
    expect(res).toEqual({ code: 0, message: '账号已注销', data: { deleted: true } });

    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await call(t, '/getUserInfo', undefined, { token: second })).code).toBe(ErrorCode.UNAUTHORIZED);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'deleted',
      phone_number: null,
      password_hash: null,
      wx_open_id: null,
      real_name: null,
      unit_name: null,
    });
    const sessions = await t.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
    expect(
      sessions.every(
        (s) => s.revoke_reason === 'account_deleted' && s.user_agent === null && s.client_ip === null,
      ),
    ).toBe(true);
    expect(await t.db.selectFrom('sms_codes').select('id').where('phone', '=', phone).execute()).toHaveLength(
      0,
    );
    expect(
      await t.db.selectFrom('login_attempts').select('id').where('phone', '=', phone).execute(),
    ).toHaveLength(0);
    expect(deidentified).toContain(userId);

    // The phone is free: the old password no longer works, a new registration does.
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw(password) })).code).toBe(
      ErrorCode.LOGIN_FAILED,
    );
    t.clock.advance(MINUTE);
    const again = await registerUser(t, phone);
    expect(await idOf(again.token)).not.toBe(userId);
  });

  it('refuses a wrong code and keeps the account', async () => {
    const { phone, token } = await registerUser(t);
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '4', { token });
    const wrong = code === '654321' ? '123456' : '654321';
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: wrong }, { token })).code).toBe(
      ErrorCode.SMS_CODE_WRONG,
    );
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);
  });

  it('does not accept a code of another purpose or another account', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    t.clock.advance(MINUTE);
    const resetCode = await sendCode(t, a.phone, '3');
    expect(
      (await call(t, '/websiteUser/deleteAccount', { checkCode: resetCode }, { token: a.token })).code,
    ).toBe(ErrorCode.SMS_CODE_EXPIRED);
    t.clock.advance(MINUTE);
    const codeOfA = await sendCode(t, a.phone, '4', { token: a.token });
    expect(
      (await call(t, '/websiteUser/deleteAccount', { checkCode: codeOfA }, { token: b.token })).code,
    ).toBe(ErrorCode.SMS_CODE_EXPIRED);
    expect((await call(t, '/getUserInfo', undefined, { token: b.token })).code).toBe(0);
  });

  it('keeps everything when a module’s deletion hook refuses', async () => {
    const { phone, token } = await registerUser(t);
    refuseDeletionOf.add(await idOf(token));
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(
      ErrorCode.INTERNAL,
    );
    expect((await call(t, '/getUserInfo', undefined, { token })).data).toMatchObject({ phoneNumber: phone });
  });

  it('needs a login, a body and a phone for the SMS way', async () => {
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: '123456' })).code).toBe(
      ErrorCode.UNAUTHORIZED,
    );
    const { token } = await registerUser(t);
    expect(await call(t, '/websiteUser/deleteAccount', {}, { token })).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请输入短信验证码',
    });
    const wx = await wechatLogin(newOpenId());
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: '123456' }, { token: wx })).code).toBe(
      ErrorCode.PHONE_NOT_BOUND,
    );
  });
});

describe('account deletion by password (no new SMS needed)', () => {
  it('deletes with the current session plus the account password, even when no SMS can be had', async () => {
    const { phone, token, password } = await registerUser(t);
    // The phone has used up its codes for the day: the SMS way is refused.
    for (let i = 0; i < 10; i++) {
      t.clock.advance(MINUTE);
      await call(t, '/sendCheckCode', { phoneNumber: phone, type: '4' }, { token });
    }
    expect((await call(t, '/sendCheckCode', { phoneNumber: phone, type: '4' }, { token })).code).toBe(
      ErrorCode.SMS_SEND_LIMITED,
    );
    const userId = await idOf(token);
    expect(
      await call(t, '/websiteUser/deleteAccount', { passWord: pw('not-my-password') }, { token }),
    ).toMatchObject({ code: ErrorCode.OLD_PASSWORD_WRONG, message: '登录密码错误' });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);
    expect(await call(t, '/websiteUser/deleteAccount', { passWord: pw(password) }, { token })).toMatchObject({
      code: 0,
      message: '账号已注销',
      data: { deleted: true },
    });
    expect(deidentified).toContain(userId);
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('needs a login, and is throttled like a login', async () => {
    expect((await call(t, '/websiteUser/deleteAccount', { passWord: pw('whatever-1') })).code).toBe(
      ErrorCode.UNAUTHORIZED,
    );
    const { token } = await registerUser(t);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (await call(t, '/websiteUser/deleteAccount', { passWord: pw(`guess-${i}x`) }, { token })).code,
      );
    expect(codes).toEqual([
      ErrorCode.OLD_PASSWORD_WRONG,
      ErrorCode.OLD_PASSWORD_WRONG,
      ErrorCode.OLD_PASSWORD_WRONG,
      ErrorCode.LOGIN_THROTTLED,
    ]);
  });
});

describe('account deletion by WeChat re-scan', () => {
  it('deletes once the account’s own WeChat scans; another WeChat is refused', async () => {
    const openId = newOpenId();
    const token = await wechatLogin(openId);
    const userId = await idOf(token);

    const wrongQr = await call<{ ticket: string; userId: string }>(
      t,
      '/websiteUser/deleteAccountRCode',
      undefined,
      { token },
    );
    expect(wrongQr.code).toBe(0);
    expect(await call(t, '/websiteUser/deleteAccount', { userId: wrongQr.data.userId }, { token })).toEqual({
      code: 0,
      message: 'success',
      data: { deleted: false },
    });
    await scan(t, wrongQr.data.ticket, newOpenId());
    expect(
      await call(t, '/websiteUser/deleteAccount', { userId: wrongQr.data.userId }, { token }),
    ).toMatchObject({
      code: ErrorCode.WECHAT_MISMATCH,
      message: '请使用当前账号绑定的微信扫码确认',
    });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);

    const qr = await call<{ ticket: string; userId: string }>(
      t,
      '/websiteUser/deleteAccountRCode',
      undefined,
      { token },
    );
    await scan(t, qr.data.ticket, openId);
    expect(await call(t, '/websiteUser/deleteAccount', { userId: qr.data.userId }, { token })).toEqual({
      code: 0,
      message: '账号已注销',
      data: { deleted: true },
    });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
    expect(
      await t.db
        .selectFrom('users')
        .select(['status', 'wx_open_id'])
        .where('id', '=', userId)
        .executeTakeFirst(),
    ).toEqual({
      status: 'deleted',
      wx_open_id: null,
    });
    // The same WeChat starts a new account.
    expect(await idOf(await wechatLogin(openId))).not.toBe(userId);
  });

  it('is for WeChat-bound accounts, and another account’s session id reveals nothing', async () => {
    const phoneUser = await registerUser(t);
    expect(
      (await call(t, '/websiteUser/deleteAccountRCode', undefined, { token: phoneUser.token })).code,
    ).toBe(ErrorCode.WECHAT_NOT_BOUND);
    const openId = newOpenId();
    const owner = await wechatLogin(openId);
    const qr = await call<{ ticket: string; userId: string }>(
      t,
      '/websiteUser/deleteAccountRCode',
      undefined,
      {
        token: owner,
      },
    );
    await scan(t, qr.data.ticket, openId);
    expect(
      await call(t, '/websiteUser/deleteAccount', { userId: qr.data.userId }, { token: phoneUser.token }),
    ).toEqual({
      code: ErrorCode.QR_EXPIRED,
      message: '二维码已过期，请重新扫码',
      data: null,
    });
    expect((await call(t, '/getUserInfo', undefined, { token: phoneUser.token })).code).toBe(0);
    expect((await call(t, '/getUserInfo', undefined, { token: owner })).code).toBe(0);
  });
});

describe('export my data', () => {
  it('downloads the account’s data as 我的数据.json', async () => {
    const { phone, token } = await registerUser(t);
    await call(t, '/websiteUser/updateUserInfo', { realName: '王五' }, { token });
    const res = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="my-data.json"; filename*=UTF-8''%E6%88%91%E7%9A%84%E6%95%B0%E6%8D%AE.json`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data).toMatchObject({
      exportedAt: t.clock.now().toISOString(),
      account: { phoneNumber: phone, realName: '王五', hasPassword: true, status: 'active' },
      entitlements: [
        expect.objectContaining({ kind: 'ai_writing_trial', grantedBy: 'phone_register', usedAt: null }),
        expect.objectContaining({ kind: 'free_aigc_detection', grantedBy: 'phone_register', usedAt: null }),
        expect.objectContaining({ kind: 'free_check', grantedBy: 'phone_register', usedAt: null }),
      ],
      sessions: [expect.objectContaining({ loginMethod: 'register', ip: '127.0.0.1' })],
      orders: [{ orderNo: expect.stringMatching(/^T-/) }],
    });
    expect(res.body).not.toContain('scrypt');
    const viaGet = await t.app.inject({
      method: 'GET',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    expect(viaGet.headers['content-disposition']).toContain("filename*=UTF-8''");
  });

  it('needs a login (answered in the envelope)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/kyfw/web/v1/websiteUser/exportData' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: ErrorCode.UNAUTHORIZED, message: '请先登录', data: null });
  });
});
