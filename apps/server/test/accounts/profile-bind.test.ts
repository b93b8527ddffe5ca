import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  MINUTE,
  newIp,
  newPhone,
  pw,
  qrCookieOf,
  registerUser,
  registrationSet,
  scan,
  sendCode,
} from './accounts-helper.ts';

let t: AccountsTestApp;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

/** Logs in by a first WeChat scan: an account with WeChat and no phone. */
async function wechatUser(): Promise<{ token: string; openId: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/kyfw/web/v1/qrCode', headers: { terminal: 'PC' } });
  const qr = (res.json() as { data: { ticket: string; userId: string } }).data;
  const cookie = qrCookieOf(res.headers['set-cookie']);
  const openId = `o${randomBytes(20).toString('base64url').slice(0, 27)}`;
  await scan(t, qr.ticket, openId);
  const status = await call<{ userInfo: { token: string } }>(
    t,
    '/loginStatus',
    { userId: qr.userId },
    { cookie },
  );
  return { token: status.data.userInfo.token, openId };
}

describe('POST /websiteUser/bindPhoneNumber', () => {
  it('binds a phone with a password to a WeChat account, which keeps the free services of its registration', async () => {
    const { token } = await wechatUser();
    const phone = newPhone();
    const code = await sendCode(t, phone, '2', { token });
    const res = await call(
      t,
      '/websiteUser/bindPhoneNumber',
      {
        phoneNumber: phone,
        checkCode: code,
        passWord: pw('bind-pass'),
        major: '计算机科学与技术',
        education: '本科',
      },
      { token },
    );
    expect(res).toMatchObject({
      code: 0,
      message: '绑定成功',
      data: {
        phoneNumber: phone,
        hasPassword: true,
        major: '计算机科学与技术',
        education: '本科',
        entitlements: registrationSet('wechat_register'),
      },
    });
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('bind-pass') })).code).toBe(0);
    // Bound once: no second phone, no second bind code.
    expect((await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '2' }, { token })).code).toBe(
      ErrorCode.ALREADY_HAS_PHONE,
    );
  });

  it('sets no password when the password is left empty (no default password, decision 0005)', async () => {
    const { token } = await wechatUser();
    const phone = newPhone();
    const code = await sendCode(t, phone, '2', { token });
    const res = await call(
      t,
      '/websiteUser/bindPhoneNumber',
      { phoneNumber: phone, checkCode: code, passWord: '', major: 3, education: 0 },
      { token },
    );
    expect(res).toMatchObject({
      code: 0,
      data: { phoneNumber: phone, hasPassword: false, major: '3', education: '0' },
    });
    // A form that hashed the empty field sends the MD5 of '': also no password.
    const other = await wechatUser();
    const otherPhone = newPhone();
    const otherCode = await sendCode(t, otherPhone, '2', { token: other.token });
    const hashedEmpty = await call(
      t,
      '/websiteUser/bindPhoneNumber',
      { phoneNumber: otherPhone, checkCode: otherCode, passWord: pw(''), major: '法学', education: '本科' },
      { token: other.token },
    );
    expect(hashedEmpty).toMatchObject({ code: 0, data: { hasPassword: false } });
    for (const guess of ['123456', '000000', '888888', '']) {
      expect(
        (await call(t, '/login', { phoneNumber: phone, passWord: pw(guess) }, { ip: newIp() })).code,
      ).not.toBe(0);
    }
    expect(
      await call(
        t,
        '/websiteUser/passwordChange',
        { oldPassWord: pw('123456'), passWord: pw('abcdef') },
        { token },
      ),
    ).toMatchObject({ code: ErrorCode.NO_PASSWORD_SET });
    // Forgot-password sets one.
    t.clock.advance(MINUTE);
    const reset = await sendCode(t, phone, '3');
    expect(
      (await call(t, '/resetPassword', { phoneNumber: phone, checkCode: reset, passWord: pw('now-set') }))
        .code,
    ).toBe(0);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('now-set') })).code).toBe(0);
  });

  it('validates with the spec messages', async () => {
    const { token } = await wechatUser();
    const base = { phoneNumber: newPhone(), checkCode: '123456', major: '法学', education: '硕士' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, phoneNumber: '1234' }, '请输入正确的手机号'],
      [{ ...base, checkCode: '' }, '请输入短信验证码'],
      [{ ...base, major: '' }, '请选择专业'],
      [{ ...base, education: undefined }, '请选择学历'],
      [{ ...base, passWord: 'not-md5' }, '密码格式错误'],
    ];
    for (const [body, message] of cases) {
      expect(await call(t, '/websiteUser/bindPhoneNumber', body, { token })).toMatchObject({
        code: ErrorCode.VALIDATION,
        message,
      });
    }
  });

  it('needs a login', async () => {
    expect((await call(t, '/websiteUser/bindPhoneNumber', {})).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('refuses a phone bound to another account, after the code proves ownership', async () => {
    const owner = await registerUser(t);
    const { token } = await wechatUser();
    t.clock.advance(MINUTE);
    const code = await sendCode(t, owner.phone, '2', { token });
    const res = await call(
      t,
      '/websiteUser/bindPhoneNumber',
      { phoneNumber: owner.phone, checkCode: code, major: '法学', education: '本科' },
      { token },
    );
    expect(res).toEqual({
      code: ErrorCode.PHONE_BOUND_ELSEWHERE,
      message: '该手机号已绑定其他账号',
      data: null,
    });
    expect((await call(t, '/getUserInfo', undefined, { token })).data).toMatchObject({
      phoneNumber: null,
      entitlements: registrationSet('wechat_register'),
    });
  });

  it('a bind code belongs to the account that asked for it', async () => {
    const a = await wechatUser();
    const b = await wechatUser();
    const phone = newPhone();
    const code = await sendCode(t, phone, '2', { token: a.token });
    const res = await call(
      t,
      '/websiteUser/bindPhoneNumber',
      { phoneNumber: phone, checkCode: code, major: '法学', education: '本科' },
      { token: b.token },
    );
    expect(res.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
  });

  it('refuses a wrong code and an account that has a phone already', async () => {
    const { token } = await wechatUser();
    const phone = newPhone();
    const code = await sendCode(t, phone, '2', { token });
    const wrong = code === '123123' ? '321321' : '123123';
    expect(
      (
        await call(
          t,
          '/websiteUser/bindPhoneNumber',
          { phoneNumber: phone, checkCode: wrong, major: '法学', education: '本科' },
          { token },
        )
      ).code,
    ).toBe(ErrorCode.SMS_CODE_WRONG);
    const user = await registerUser(t);
    expect(
      (
        await call(
          t,
          '/websiteUser/bindPhoneNumber',
          { phoneNumber: newPhone(), checkCode: '123456', major: '法学', education: '本科' },
          { token: user.token },
        )
      ).code,
    ).toBe(ErrorCode.ALREADY_HAS_PHONE);
  });
});

describe('personal info', () => {
  it('/websiteUser/userInfo and /getUserInfo give the caller’s own data only', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const infoA = await call<{ id: string; phoneNumber: string }>(t, '/websiteUser/userInfo', undefined, {
      token: a.token,
    });
    expect(infoA.data.phoneNumber).toBe(a.phone);
    expect((await call(t, '/getUserInfo', undefined, { token: a.token })).data).toEqual(infoA.data);
    const infoB = await call<{ id: string; phoneNumber: string }>(
      t,
      '/websiteUser/userInfo',
      { id: infoA.data.id },
      { token: b.token },
    );
    expect(infoB.data.phoneNumber).toBe(b.phone);
    expect((await call(t, '/websiteUser/userInfo')).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('/websiteUser/updateUserInfo saves the given fields, clears with empty values', async () => {
    const { token } = await registerUser(t);
    const saved = await call(
      t,
      '/websiteUser/updateUserInfo',
      {
        realName: ' 张三 ',
        unitName: '北京大学',
        gender: 'male',
        major: '历史学',
        education: '博士',
        id: 'ignored',
      },
      { token },
    );
    expect(saved).toMatchObject({
      code: 0,
      message: '保存成功',
      data: { realName: '张三', unitName: '北京大学', gender: 'male', major: '历史学', education: '博士' },
    });
    const partial = await call(t, '/websiteUser/updateUserInfo', { unitName: '', gender: '' }, { token });
    expect(partial.data).toMatchObject({ realName: '张三', unitName: null, gender: null, major: '历史学' });
    expect(
      await call(t, '/websiteUser/updateUserInfo', { realName: '名'.repeat(51) }, { token }),
    ).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '姓名不能超过50个字',
    });
    expect(await call(t, '/websiteUser/updateUserInfo', { gender: 'x' }, { token })).toMatchObject({
      code: ErrorCode.VALIDATION,
    });
  });
});

describe('POST /websiteUser/passwordChange', () => {
  it('changes the password and ends the other sessions, keeping this one', async () => {
    const { phone, token, password } = await registerUser(t);
    const other = (await call<{ token: string }>(t, '/login', { phoneNumber: phone, passWord: pw(password) }))
      .data.token;
    const res = await call(
      t,
      '/websiteUser/passwordChange',
      { oldPassWord: pw(password), passWord: pw('changed-1') },
      { token },
    );
    expect(res).toEqual({ code: 0, message: '密码修改成功，请牢记新密码', data: null });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);
    expect((await call(t, '/getUserInfo', undefined, { token: other })).code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw(password) })).code).toBe(
      ErrorCode.LOGIN_FAILED,
    );
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('changed-1') })).code).toBe(0);
  });

  it('refuses a wrong old password, an unchanged one, and accounts without phone', async () => {
    const { token, password } = await registerUser(t);
    expect(
      await call(
        t,
        '/websiteUser/passwordChange',
        { oldPassWord: pw('not-it'), passWord: pw('changed-1') },
        { token },
      ),
    ).toMatchObject({ code: ErrorCode.OLD_PASSWORD_WRONG, message: '原密码错误' });
    expect(
      await call(
        t,
        '/websiteUser/passwordChange',
        { oldPassWord: pw(password), passWord: pw(password) },
        { token },
      ),
    ).toMatchObject({ code: ErrorCode.PASSWORD_UNCHANGED });
    const wx = await wechatUser();
    expect(
      await call(
        t,
        '/websiteUser/passwordChange',
        { oldPassWord: pw('abcdef'), passWord: pw('ghijkl') },
        { token: wx.token },
      ),
    ).toMatchObject({ code: ErrorCode.PHONE_NOT_BOUND, message: '请先绑定手机号' });
  });

  it('counts wrong old passwords towards the phone’s lockout', async () => {
    const { phone, token, password } = await registerUser(t);
    const change = (old: string) =>
      call(t, '/websiteUser/passwordChange', { oldPassWord: pw(old), passWord: pw('x-new-pass') }, { token });
    for (let i = 0; i < 5; i++) {
      expect((await change(`guess-${i}`)).code).toBe(ErrorCode.OLD_PASSWORD_WRONG);
      t.clock.advance(MINUTE);
    }
    // Five failures: locked, for the right old password too, and for /login of that phone.
    expect((await change(password)).code).toBe(ErrorCode.LOGIN_LOCKED);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw(password) })).code).toBe(
      ErrorCode.LOGIN_LOCKED,
    );
    t.clock.advance(15 * MINUTE);
    expect((await change(password)).code).toBe(0);
  });
});

describe('POST /websiteUser/queryIsUsePhone', () => {
  it('says whether a phone has an account', async () => {
    const { phone } = await registerUser(t);
    const ip = newIp();
    expect(await call(t, '/websiteUser/queryIsUsePhone', { phoneNumber: phone }, { ip })).toEqual({
      code: 0,
      message: 'success',
      data: { used: true },
    });
    expect((await call(t, '/websiteUser/queryIsUsePhone', { phoneNumber: newPhone() }, { ip })).data).toEqual(
      {
        used: false,
      },
    );
  });

  it('is limited per client IP (10 a minute)', async () => {
    const ip = newIp();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push((await call(t, '/websiteUser/queryIsUsePhone', { phoneNumber: newPhone() }, { ip })).code);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(codes[10]).toBe(ErrorCode.RATE_LIMITED);
    t.clock.advance(MINUTE);
    expect((await call(t, '/websiteUser/queryIsUsePhone', { phoneNumber: newPhone() }, { ip })).code).toBe(0);
  });
});
