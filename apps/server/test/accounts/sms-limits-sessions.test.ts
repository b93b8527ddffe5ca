import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode, ok } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionalUser, requireUser } from '../../src/modules/accounts/accounts.service.ts';
import { captchaAnswer } from '../../src/modules/accounts/captcha.ts';
import { serverModules } from '../../src/modules/index.ts';
import { defineRoutesModule } from '../../src/modules/types.ts';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  DAY,
  HOUR,
  MINUTE,
  newIp,
  newPhone,
  pw,
  qrCookieOf,
  registerUser,
  SECOND,
  scan,
  sendCode,
} from './accounts-helper.ts';

/** Another module using the auth helpers, as orders or check will. */
const probeModule = defineRoutesModule({
  name: 'probe',
  routes(app) {
    app.post('/probe/required', async (request) => {
      const { userId, user } = await requireUser(request);
      return ok({ userId, phoneNumber: user.phoneNumber, hasHash: 'passwordHash' in user });
    });
    app.post('/probe/optional', async (request) =>
      ok({ userId: (await optionalUser(request))?.userId ?? null }),
    );
  },
});

let t: AccountsTestApp;
/** Same app, the default per-address rules (ceiling 20 / 300 / 1000, picture check past 3, 30 failures). */
let strict: AccountsTestApp;
/** A small flood ceiling per address (2 a minute, 3 an hour), no picture check. */
let ceiling: AccountsTestApp;
/** The answers of the picture checks the apps drew, in order (the test reads the picture). */
const answers: string[] = [];
const readPicture = () => {
  const answer = captchaAnswer();
  answers.push(answer);
  return answer;
};
const DEFAULTS = {
  SMS_IP_MAX_PER_MINUTE: '',
  SMS_IP_MAX_PER_HOUR: '',
  SMS_IP_MAX_PER_DAY: '',
  SMS_IP_CAPTCHA_AFTER: '',
  SMS_IP_MAX_FAILURES_PER_HOUR: '',
};
beforeAll(async () => {
  [t, strict, ceiling] = await Promise.all([
    buildAccountsApp({ modules: [...serverModules, probeModule] }),
    buildAccountsApp({ env: DEFAULTS, providers: { captchaAnswer: readPicture } }),
    buildAccountsApp({ env: { SMS_IP_MAX_PER_MINUTE: '2', SMS_IP_MAX_PER_HOUR: '3' } }),
  ]);
});
afterAll(() => Promise.all([t.close(), strict.close(), ceiling.close()]));

/** A WeChat-only account (first scan of a login QR): it may ask for bind codes (type 2). */
async function wechatAccount(app: AccountsTestApp): Promise<string> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/qrCode',
    headers: { terminal: 'PC' },
  });
  const qr = (res.json() as { data: { ticket: string; userId: string } }).data;
  const cookie = qrCookieOf(res.headers['set-cookie']);
  await scan(app, qr.ticket, `o${randomBytes(20).toString('base64url').slice(0, 27)}`);
  const status = await call<{ userInfo: { token: string } }>(
    app,
    '/loginStatus',
    { userId: qr.userId },
    { cookie },
  );
  return status.data.userInfo.token;
}

describe('SMS sending limits', () => {
  it('allows one code a minute per phone and purpose, saying how long to wait', async () => {
    const phone = newPhone();
    const send = (type: string) => call(t, '/sendCheckCode', { phoneNumber: phone, type }, { ip: newIp() });
    expect((await send('1')).code).toBe(0);
    t.clock.advance(20 * SECOND);
    expect(await send('1')).toEqual({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送过于频繁，请40秒后再试',
      data: null,
    });
    // Another purpose is not kept waiting by the register code (e.g. 已注册 -> 忘记密码 at once).
    expect(await send('3')).toMatchObject({ code: 0, message: '短信发送成功' });
    expect(await send('3')).toEqual({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送过于频繁，请60秒后再试',
      data: null,
    });
    t.clock.advance(40 * SECOND);
    expect((await send('1')).code).toBe(0);
    expect(await send('3')).toMatchObject({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送过于频繁，请20秒后再试',
    });
  });

  it('caps a phone at 10 codes a day whatever their purposes: cycling the type buys nothing', async () => {
    // The phone's owner has an account (type 4 is only sent to the account's own phone); a
    // WeChat-only account asks for bind codes (type 2) to the same number.
    const owner = await registerUser(t, newPhone(), 'secret-123', { ip: newIp() }); // code 1: type 1
    const phone = owner.phone;
    const binder = await wechatAccount(t);
    const tokens: Record<string, string | undefined> = {
      '1': undefined,
      '2': binder,
      '3': undefined,
      '4': owner.token,
    };
    const send = (type: string) =>
      call(t, '/sendCheckCode', { phoneNumber: phone, type }, { ip: newIp(), token: tokens[type] });
    // Nine more, a quarter of an hour apart (never 5 in an hour), cycling 3, 2, 4, 1.
    for (let i = 0; i < 9; i++) {
      t.clock.advance(15 * MINUTE);
      expect((await send(['3', '2', '4', '1'][i % 4])).code).toBe(0);
    }
    // 10 sent in the last 2 h 15 min: no purpose gets an 11th until the first is a day old.
    t.clock.advance(15 * MINUTE);
    for (const type of ['1', '2', '3', '4']) {
      expect(await send(type)).toEqual({
        code: ErrorCode.SMS_SEND_LIMITED,
        message: '验证码发送次数已达上限，请22小时后再试',
        data: null,
      });
    }
    t.clock.advance(DAY);
    expect(await send('4')).toMatchObject({ code: 0, message: '短信发送成功' });
  });

  it('allows 5 an hour and 10 a day per phone', async () => {
    const phone = newPhone();
    const send = () => call(t, '/sendCheckCode', { phoneNumber: phone, type: '1' }, { ip: newIp() });
    for (let i = 0; i < 5; i++) {
      expect((await send()).code).toBe(0);
      t.clock.advance(MINUTE);
    }
    // 5 sent in the last 5 minutes: the oldest leaves the hour window 55 minutes from now.
    expect(await send()).toMatchObject({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送次数已达上限，请55分钟后再试',
    });
    t.clock.advance(HOUR);
    for (let i = 0; i < 5; i++) {
      expect((await send()).code).toBe(0);
      t.clock.advance(MINUTE);
    }
    t.clock.advance(HOUR);
    expect(await send()).toMatchObject({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: expect.stringMatching(/小时后再试$/),
    });
    t.clock.advance(DAY);
    expect((await send()).code).toBe(0);
  });

  it('lets a class of 40 behind one address get codes in the same hour: past 3, each with a picture check', async () => {
    const ip = newIp();
    const codes: number[] = [];
    const send = (phone: string, captcha: Record<string, string> = {}) =>
      call(strict, '/sendCheckCode', { phoneNumber: phone, type: '1', ...captcha }, { ip });
    for (let student = 0; student < 40; student++) {
      const phone = newPhone();
      let res = await send(phone);
      if (student >= 3) {
        expect(res).toEqual({ code: ErrorCode.CAPTCHA_REQUIRED, message: '请输入图形验证码', data: null });
        const captcha = await call<{ captchaId: string; image: string }>(strict, '/captcha', undefined, {
          ip,
        });
        expect(captcha.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
        res = await send(phone, {
          captchaId: captcha.data.captchaId,
          captchaCode: answers.at(-1)!.toLowerCase(),
        });
      }
      codes.push(res.code);
      strict.clock.advance(20 * SECOND);
    }
    expect(codes).toEqual(codes.map(() => 0));
  });

  it('a picture check is single use, bound to its address, and expires after 5 minutes', async () => {
    const ip = newIp();
    for (let i = 0; i < 3; i++)
      await call(strict, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip });
    const fresh = async () =>
      (await call<{ captchaId: string }>(strict, '/captcha', undefined, { ip })).data.captchaId;
    const send = (captchaId: string, captchaCode: string, from = ip) =>
      call(
        strict,
        '/sendCheckCode',
        { phoneNumber: newPhone(), type: '1', captchaId, captchaCode },
        { ip: from },
      );
    const used = await fresh();
    expect((await send(used, answers.at(-1)!)).code).toBe(0);
    expect(await send(used, answers.at(-1)!)).toMatchObject({
      code: ErrorCode.CAPTCHA_WRONG,
      message: '图形验证码已失效，请重新输入',
    });
    // Another address (that must pass a check too) cannot use this address's check.
    const elsewhere = newIp();
    for (let i = 0; i < 3; i++)
      await call(strict, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip: elsewhere });
    const other = await fresh();
    expect(await send(other, answers.at(-1)!, elsewhere)).toMatchObject({ code: ErrorCode.CAPTCHA_WRONG });
    expect((await send(other, answers.at(-1)!)).code).toBe(0);
    const old = await fresh();
    strict.clock.advance(5 * MINUTE);
    expect((await send(old, answers.at(-1)!)).code).toBe(ErrorCode.CAPTCHA_WRONG);
    expect(await send(await fresh(), 'WXYZ')).toEqual({
      code: ErrorCode.CAPTCHA_WRONG,
      message: '图形验证码错误，请重新输入',
      data: null,
    });
  });

  it('blocks an address by its failures (wrong codes, wrong picture checks), not by its sends', async () => {
    const ip = newIp();
    // 30 wrong codes from one address (on codes sent to phones from elsewhere).
    for (let i = 0; i < 30; i++) {
      const phone = newPhone();
      await sendCode(strict, phone, '1', { ip: newIp() });
      const wrong = await call(
        strict,
        '/addUserByPhone',
        { phoneNumber: phone, checkCode: '000000', passWord: pw('x-123456') },
        { ip },
      );
      expect(wrong.code).toBe(ErrorCode.SMS_CODE_WRONG);
      strict.clock.advance(MINUTE);
    }
    expect(await call(strict, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip })).toEqual({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '该网络的验证失败次数过多，请30分钟后再试',
      data: null,
    });
    // Another address is not affected; the block ends when the failures leave the hour.
    expect(
      (await call(strict, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip: newIp() })).code,
    ).toBe(0);
    strict.clock.advance(30 * MINUTE);
    expect((await call(strict, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip })).code).toBe(
      0,
    );
  });

  it('keeps a flood ceiling per address (SMS_IP_MAX_PER_*), configurable', async () => {
    const ip = newIp();
    const send = () => call(ceiling, '/sendCheckCode', { phoneNumber: newPhone(), type: '1' }, { ip });
    expect((await send()).code).toBe(0);
    expect((await send()).code).toBe(0);
    expect(await send()).toMatchObject({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送过于频繁，请60秒后再试',
    });
    ceiling.clock.advance(MINUTE);
    expect((await send()).code).toBe(0);
    expect(await send()).toMatchObject({
      code: ErrorCode.SMS_SEND_LIMITED,
      message: '验证码发送次数已达上限，请59分钟后再试',
    });
  });

  it('keeps codes only as hashes', async () => {
    const phone = newPhone();
    const code = await sendCode(t, phone, '1', { ip: newIp() });
    const row = await t.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toBe(createHash('sha256').update(`${row.id}:${code}`).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(`"${code}"`);
  });
});

describe('sessions', () => {
  it('stores only the SHA-256 of the token', async () => {
    const { token } = await registerUser(t, newPhone(), 'secret-123', { ip: newIp() });
    const hash = createHash('sha256').update(token).digest('hex');
    const rows = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hash);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('expire after 7 days', async () => {
    const { token } = await registerUser(t, newPhone(), 'secret-123', { ip: newIp() });
    t.clock.advance(7 * DAY - MINUTE);
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(0);
    t.clock.advance(MINUTE);
    expect(await call(t, '/getUserInfo', undefined, { token })).toEqual({
      code: ErrorCode.UNAUTHORIZED,
      message: '请先登录',
      data: null,
    });
  });

  it('end on /user/logout; other sessions of the account stay', async () => {
    const { phone, token, password } = await registerUser(t, newPhone(), 'secret-123', { ip: newIp() });
    const other = (await call<{ token: string }>(t, '/login', { phoneNumber: phone, passWord: pw(password) }))
      .data.token;
    expect(await call(t, '/user/logout', undefined, { token })).toEqual({
      code: 0,
      message: '已退出登录',
      data: null,
    });
    expect((await call(t, '/getUserInfo', undefined, { token })).code).toBe(ErrorCode.UNAUTHORIZED);
    expect((await call(t, '/getUserInfo', undefined, { token: other })).code).toBe(0);
    // Logging out again is harmless.
    expect((await call(t, '/user/logout', undefined, { token })).code).toBe(0);
  });

  it('refuse missing, malformed and unknown tokens', async () => {
    for (const token of [undefined, '', 'abc', 'f'.repeat(64)]) {
      expect((await call(t, '/getUserInfo', undefined, token === undefined ? {} : { token })).code).toBe(
        ErrorCode.UNAUTHORIZED,
      );
    }
  });

  it('serve other modules through requireUser / optionalUser', async () => {
    const { phone, token } = await registerUser(t, newPhone(), 'secret-123', { ip: newIp() });
    const required = await call<{ userId: string; phoneNumber: string; hasHash: boolean }>(
      t,
      '/probe/required',
      undefined,
      { token },
    );
    expect(required).toMatchObject({ code: 0, data: { phoneNumber: phone, hasHash: false } });
    expect(await call(t, '/probe/required')).toMatchObject({
      code: ErrorCode.UNAUTHORIZED,
      message: '请先登录',
    });
    expect(await call(t, '/probe/optional', undefined, { token })).toMatchObject({
      data: { userId: required.data.userId },
    });
    expect(await call(t, '/probe/optional', undefined, { token: 'nonsense' })).toMatchObject({
      code: 0,
      data: { userId: null },
    });
  });
});
