import { ErrorCode, md5Hex } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  lastSms,
  MINUTE,
  newIp,
  newPhone,
  pw,
  registerUser,
  registrationSet,
  SECOND,
  sendCode,
} from './accounts-helper.ts';

let t: AccountsTestApp;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

describe('POST /sendCheckCode', () => {
  it('sends a six-digit code and answers 短信发送成功 (sandbox says so in data)', async () => {
    const phone = newPhone();
    const res = await call(t, '/sendCheckCode', { phoneNumber: phone, type: '1' });
    expect(res).toEqual({ code: 0, message: '短信发送成功', data: { sandbox: true } });
    const last = await lastSms(t, phone);
    expect(last.data).toMatchObject({ type: '1', code: expect.stringMatching(/^\d{6}$/) });
  });

  it('rejects bad input with the spec messages', async () => {
    expect(await call(t, '/sendCheckCode', { type: '1' })).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请输入手机号码',
    });
    expect(await call(t, '/sendCheckCode', { phoneNumber: '12345678901', type: '1' })).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请输入正确的手机号',
    });
    expect(await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '9' })).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '短信类型错误',
    });
  });

  it('answers the same for a registered and an unregistered phone (no enumeration)', async () => {
    const { phone } = await registerUser(t);
    t.clock.advance(MINUTE);
    const registered = await call(t, '/sendCheckCode', { phoneNumber: phone, type: '1' });
    const unregistered = await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' });
    expect(registered).toEqual(unregistered);
    const resetUnknown = await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '3' });
    expect(resetUnknown).toEqual(unregistered);
  });

  it('needs a login for binding (2) and deletion (4) codes', async () => {
    for (const type of ['2', '4']) {
      expect(await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type })).toMatchObject({
        code: ErrorCode.UNAUTHORIZED,
        message: '请先登录',
      });
    }
  });

  it('sends deletion codes only to the account’s own phone, bind codes only to accounts without one', async () => {
    const { token } = await registerUser(t);
    expect(await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '4' }, { token })).toMatchObject({
      code: ErrorCode.PHONE_MISMATCH,
    });
    expect(await call(t, '/sendCheckCode', { phoneNumber: newPhone(), type: '2' }, { token })).toMatchObject({
      code: ErrorCode.ALREADY_HAS_PHONE,
    });
  });
});

describe('POST /addUserByPhone', () => {
  it('registers and logs in: the token works for /getUserInfo; the account holds the free services', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    const res = await call<{ token: string }>(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('hello-world'),
    });
    expect(res.code).toBe(0);
    expect(res.data.token).toMatch(/^[0-9a-f]{64}$/);
    // Granted by the registration itself (spec §1: the phone is bound), before any page reads them.
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('phone_number', '=', phone)
      .executeTakeFirstOrThrow();
    const rows = await t.db
      .selectFrom('entitlements')
      .select(['kind', 'granted_by'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => `${r.kind}:${r.granted_by}`).sort()).toEqual([
      'ai_writing_trial:phone_register',
      'free_aigc_detection:phone_register',
      'free_check:phone_register',
    ]);
    const info = await call(t, '/getUserInfo', undefined, { token: res.data.token });
    expect(info).toMatchObject({
      code: 0,
      data: {
        phoneNumber: phone,
        wxOpenId: null,
        hasPassword: true,
        entitlements: registrationSet('phone_register'),
        entitlementsEarnedBefore: false,
      },
    });
  });

  it('refuses a wrong code, counting the tries left', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: wrong,
      passWord: pw('abcdef'),
    });
    expect(res).toEqual({ code: ErrorCode.SMS_CODE_WRONG, message: '验证码错误，还可尝试4次', data: null });
  });

  it('voids a code after 5 wrong tries, even for the right code', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(
        (await call(t, '/addUserByPhone', { phoneNumber: phone, checkCode: wrong, passWord: pw('abcdef') }))
          .code,
      );
    }
    expect(answers).toEqual([
      ErrorCode.SMS_CODE_WRONG,
      ErrorCode.SMS_CODE_WRONG,
      ErrorCode.SMS_CODE_WRONG,
      ErrorCode.SMS_CODE_WRONG,
      ErrorCode.SMS_CODE_TOO_MANY_TRIES,
    ]);
    const right = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(right.code).toBe(ErrorCode.SMS_CODE_TOO_MANY_TRIES);
  });

  it('refuses a code after 5 minutes', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    t.clock.advance(5 * MINUTE + SECOND);
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res).toMatchObject({ code: ErrorCode.SMS_CODE_EXPIRED, message: '验证码已过期，请重新获取' });
  });

  it('accepts a code just before 5 minutes', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    t.clock.advance(5 * MINUTE - SECOND);
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res.code).toBe(0);
  });

  it('binds a code to its purpose: a reset code does not register', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '3');
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
  });

  it('binds a code to its phone', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    const other = newPhone();
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: other,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
  });

  it('uses a code once', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1');
    const body = { phoneNumber: phone, checkCode: code, passWord: pw('abcdef') };
    const [a, b] = await Promise.all([call(t, '/addUserByPhone', body), call(t, '/addUserByPhone', body)]);
    expect([a.code, b.code].sort()).toEqual([0, ErrorCode.SMS_CODE_EXPIRED].sort());
    const again = await call(t, '/addUserByPhone', body);
    expect(again.code).toBe(ErrorCode.SMS_CODE_EXPIRED);
  });

  it('only the latest code counts', async () => {
    const phone = newPhone();
    const first = await sendCode(t, phone, '1');
    t.clock.advance(MINUTE);
    const second = await sendCode(t, phone, '1');
    if (first !== second) {
      const old = await call(t, '/addUserByPhone', {
        phoneNumber: phone,
        checkCode: first,
        passWord: pw('abcdef'),
      });
      expect(old.code).toBe(ErrorCode.SMS_CODE_WRONG);
    }
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: second,
      passWord: pw('abcdef'),
    });
    expect(res.code).toBe(0);
  });

  it('tells the phone’s owner (holding a valid code) that the phone is registered', async () => {
    const { phone } = await registerUser(t);
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '1');
    const res = await call(t, '/addUserByPhone', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res).toEqual({
      code: ErrorCode.PHONE_REGISTERED,
      message: '该手机号已注册，请直接登录',
      data: null,
    });
  });

  it('validates the body with the spec messages', async () => {
    const phone = newPhone();
    expect(await call(t, '/addUserByPhone', { phoneNumber: phone, passWord: pw('abcdef') })).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请输入短信验证码',
    });
    expect(
      await call(t, '/addUserByPhone', { phoneNumber: phone, checkCode: '123456', passWord: md5Hex('') }),
    ).toMatchObject({ code: ErrorCode.VALIDATION, message: '请输入密码' });
    expect(
      await call(t, '/addUserByPhone', { phoneNumber: phone, checkCode: '123456', passWord: 'plain-text' }),
    ).toMatchObject({ code: ErrorCode.VALIDATION, message: '密码格式错误' });
  });

  it('stores only a salted scrypt hash of the MD5, never the MD5', async () => {
    const password = 'same-password';
    const a = await registerUser(t, newPhone(), password);
    const b = await registerUser(t, newPhone(), password);
    const rows = await t.db
      .selectFrom('users')
      .select(['phone_number', 'password_hash'])
      .where('phone_number', 'in', [a.phone, b.phone])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$4096\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      expect(row.password_hash).not.toContain(pw(password));
    }
    expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
  });
});

describe('POST /login', () => {
  it('logs in with phone and MD5 password; a new token per login', async () => {
    const { phone, token, password } = await registerUser(t);
    const res = await call<{ token: string }>(t, '/login', { phoneNumber: phone, passWord: pw(password) });
    expect(res.code).toBe(0);
    expect(res.data.token).toMatch(/^[0-9a-f]{64}$/);
    expect(res.data.token).not.toBe(token);
    expect((await call(t, '/getUserInfo', undefined, { token: res.data.token })).code).toBe(0);
  });

  it('answers a wrong password and an unknown phone identically', async () => {
    const { phone } = await registerUser(t);
    const wrong = await call(t, '/login', { phoneNumber: phone, passWord: pw('nope-nope') }, { ip: newIp() });
    const unknown = await call(
      t,
      '/login',
      { phoneNumber: newPhone(), passWord: pw('nope-nope') },
      { ip: newIp() },
    );
    expect(wrong).toEqual({ code: ErrorCode.LOGIN_FAILED, message: '手机号或密码错误', data: null });
    expect(unknown).toEqual(wrong);
  });

  it('validates with the spec messages', async () => {
    expect(await call(t, '/login', { passWord: pw('abcdef') })).toMatchObject({ message: '请输入手机号码' });
    expect(await call(t, '/login', { phoneNumber: '1234', passWord: pw('abcdef') })).toMatchObject({
      message: '请输入正确的手机号码',
    });
    expect(await call(t, '/login', { phoneNumber: newPhone() })).toMatchObject({ message: '请输入密码' });
  });

  it('slows down and then locks a phone after repeated failures, with the same message for unknown phones', async () => {
    for (const phone of [(await registerUser(t)).phone, newPhone()]) {
      const attempt = () =>
        call(t, '/login', { phoneNumber: phone, passWord: pw('wrong-pass') }, { ip: newIp() });
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
      // Third failure: the next try must wait 10 s.
      expect(await attempt()).toMatchObject({
        code: ErrorCode.LOGIN_THROTTLED,
        message: '登录失败次数较多，请10秒后再试',
      });
      t.clock.advance(10 * SECOND);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
      expect(await attempt()).toMatchObject({
        code: ErrorCode.LOGIN_THROTTLED,
        message: '登录失败次数较多，请30秒后再试',
      });
      t.clock.advance(30 * SECOND);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
      // Fifth failure: locked for 15 minutes.
      expect(await attempt()).toMatchObject({
        code: ErrorCode.LOGIN_LOCKED,
        message: '登录失败次数过多，已暂时锁定，请15分钟后再试',
      });
      t.clock.advance(14 * MINUTE);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_LOCKED);
      t.clock.advance(MINUTE);
      expect((await attempt()).code).toBe(ErrorCode.LOGIN_FAILED);
    }
  });

  it('refuses even the right password while locked, and resets after a success', async () => {
    const { phone, password } = await registerUser(t);
    const wrong = () => call(t, '/login', { phoneNumber: phone, passWord: pw('wrong-pass') });
    const right = () => call(t, '/login', { phoneNumber: phone, passWord: pw(password) });
    await wrong();
    await wrong();
    expect((await right()).code).toBe(0);
    // The success reset the count: two more failures do not slow down.
    await wrong();
    await wrong();
    expect((await wrong()).code).toBe(ErrorCode.LOGIN_FAILED);
    for (const delay of [10, 30]) {
      t.clock.advance(delay * SECOND);
      await wrong();
    }
    expect((await right()).code).toBe(ErrorCode.LOGIN_LOCKED);
    t.clock.advance(15 * MINUTE);
    expect((await right()).code).toBe(0);
  });

  it('lets 20 people behind one address log in at once (only failures count per address)', async () => {
    const users = await Promise.all(
      Array.from({ length: 20 }, () => registerUser(t, newPhone(), 'campus-123', { ip: newIp() })),
    );
    const ip = newIp();
    const results = await Promise.all(
      users.map((u) => call(t, '/login', { phoneNumber: u.phone, passWord: pw(u.password) }, { ip })),
    );
    expect(results.map((r) => r.code)).toEqual(users.map(() => 0));
  });

  it('lets 20 simultaneous correct logins to one account all succeed (only failures count per phone)', async () => {
    const { phone, password } = await registerUser(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(t, '/login', { phoneNumber: phone, passWord: pw(password) }, { ip: newIp() }),
      ),
    );
    expect(results.map((r) => r.message)).toEqual(results.map(() => '欢迎登录！'));
    expect(new Set(results.map((r) => (r.data as { token: string }).token)).size).toBe(20);
  });

  it('keeps the guess budget of a phone under simultaneous wrong passwords', async () => {
    const { phone, password } = await registerUser(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(t, '/login', { phoneNumber: phone, passWord: pw('wrong-pass') }, { ip: newIp() }),
      ),
    );
    // At most five passwords are checked before the phone is locked; the rest are refused unchecked.
    const checked = results.filter((r) => r.code === ErrorCode.LOGIN_FAILED).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked).toBeGreaterThanOrEqual(3);
    expect(results.every((r) => r.code !== 0)).toBe(true);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw(password) })).code).not.toBe(0);
  });

  it('locks a client IP that fails on many phones', async () => {
    const ip = newIp();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      codes.push(
        (await call(t, '/login', { phoneNumber: newPhone(), passWord: pw('guess-123') }, { ip })).code,
      );
      t.clock.advance(10 * SECOND);
    }
    expect(codes.slice(0, 20).every((c) => c === ErrorCode.LOGIN_FAILED)).toBe(true);
    expect(codes[20]).toBe(ErrorCode.LOGIN_LOCKED);
    // Another address is not affected.
    const other = await call(
      t,
      '/login',
      { phoneNumber: newPhone(), passWord: pw('guess-123') },
      { ip: newIp() },
    );
    expect(other.code).toBe(ErrorCode.LOGIN_FAILED);
    t.clock.advance(15 * MINUTE);
    expect((await call(t, '/login', { phoneNumber: newPhone(), passWord: pw('x-guess') }, { ip })).code).toBe(
      ErrorCode.LOGIN_FAILED,
    );
  });
});

describe('POST /resetPassword', () => {
  it('sets a new password with a type-3 code and ends every session', async () => {
    const { phone, token, password } = await registerUser(t);
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '3');
    const res = await call(t, '/resetPassword', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('brand-new'),
    });
    expect(res).toEqual({ code: 0, message: '密码重置成功，请使用新密码登录', data: null });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw(password) })).code).toBe(
      ErrorCode.LOGIN_FAILED,
    );
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('brand-new') })).code).toBe(0);
  });

  it('lifts a lockout of the phone (the owner proved themselves)', async () => {
    const { phone } = await registerUser(t);
    for (let i = 0; i < 5; i++) {
      await call(t, '/login', { phoneNumber: phone, passWord: pw('attacker') });
      t.clock.advance(30 * SECOND);
    }
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('attacker') })).code).toBe(
      ErrorCode.LOGIN_LOCKED,
    );
    const code = await sendCode(t, phone, '3');
    expect(
      (await call(t, '/resetPassword', { phoneNumber: phone, checkCode: code, passWord: pw('owner-pass') }))
        .code,
    ).toBe(0);
    expect((await call(t, '/login', { phoneNumber: phone, passWord: pw('owner-pass') })).code).toBe(0);
  });

  it('refuses wrong and expired codes', async () => {
    const { phone } = await registerUser(t);
    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '3');
    const wrong = code === '999999' ? '888888' : '999999';
    expect(
      (await call(t, '/resetPassword', { phoneNumber: phone, checkCode: wrong, passWord: pw('brand-new') }))
        .code,
    ).toBe(ErrorCode.SMS_CODE_WRONG);
    t.clock.advance(6 * MINUTE);
    expect(
      (await call(t, '/resetPassword', { phoneNumber: phone, checkCode: code, passWord: pw('brand-new') }))
        .code,
    ).toBe(ErrorCode.SMS_CODE_EXPIRED);
  });

  it('tells the holder of a valid code that the phone has no account', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '3');
    const res = await call(t, '/resetPassword', {
      phoneNumber: phone,
      checkCode: code,
      passWord: pw('abcdef'),
    });
    expect(res).toMatchObject({ code: ErrorCode.PHONE_NOT_REGISTERED, message: '该手机号尚未注册' });
  });
});
