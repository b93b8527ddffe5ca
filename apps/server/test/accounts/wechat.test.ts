import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeEntitlement,
  listEntitlements,
  restoreEntitlement,
} from '../../src/modules/accounts/accounts.service.ts';
import { buildWechatXml, computeWechatSignature } from '../../src/providers/wechat/index.ts';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  MINUTE,
  qrCookieOf,
  registerUser,
  registrationSet,
  SECOND,
  scan,
} from './accounts-helper.ts';

const WECHAT_TOKEN = 'kyfwTestToken2026';

let t: AccountsTestApp;
beforeAll(async () => {
  t = await buildAccountsApp({ env: { WECHAT_TOKEN } });
});
afterAll(() => t.close());

interface QrData {
  ticket: string;
  userId: string;
  qrUrl: string;
  expireSeconds: number;
  sandbox: boolean;
}

const newOpenId = () => `o${randomBytes(20).toString('base64url').slice(0, 27)}`;

/** POST /qrCode as a browser; returns the QR and the browser's cookie. */
async function loginQr(cookie?: string): Promise<{ qr: QrData; cookie: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/qrCode',
    headers: { terminal: 'PC', ...(cookie ? { cookie } : {}) },
  });
  const body = res.json() as { code: number; data: QrData };
  expect(body.code).toBe(0);
  return { qr: body.data, cookie: cookie ?? qrCookieOf(res.headers['set-cookie']) };
}

function poll(userId: unknown, cookie?: string) {
  return call<{ loginStatus: string; userInfo: { token: string } | null }>(
    t,
    '/loginStatus',
    { userId },
    cookie ? { cookie } : {},
  );
}

async function sceneOf(sessionId: string): Promise<string> {
  const row = await t.db
    .selectFrom('wechat_login_sessions')
    .select('scene')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.scene;
}

/** The signed query of a push as the platform builds it (optionally with a wrong token or time). */
function signedQuery(options: { token?: string; timestamp?: number } = {}): string {
  const timestamp = String(options.timestamp ?? Math.floor(t.clock.now().getTime() / 1000));
  const nonce = String(Math.floor(Math.random() * 1e9));
  const signature = computeWechatSignature(options.token ?? WECHAT_TOKEN, timestamp, nonce);
  return `signature=${signature}&timestamp=${timestamp}&nonce=${nonce}&openid=x`;
}

/** POSTs a push to our callback, freshly signed unless `query` (a captured one) is given. */
function push(xml: string, options: { token?: string; timestamp?: number; query?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/wechat/callback?${options.query ?? signedQuery(options)}`,
    headers: { 'content-type': 'text/xml' },
    payload: xml,
  });
}

function scanXml(openId: string, scene: string, createTime = Math.floor(t.clock.now().getTime() / 1000)) {
  return buildWechatXml({
    ToUserName: 'gh_sandbox00000',
    FromUserName: openId,
    CreateTime: createTime,
    MsgType: 'event',
    Event: 'SCAN',
    EventKey: scene,
    Ticket: 'ticket-of-the-test',
  });
}

describe('WeChat QR login', () => {
  it('/qrCode gives ticket, session id and image, bound to this browser by an HttpOnly cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/qrCode',
      headers: { terminal: 'PC' },
    });
    const body = res.json() as { code: number; data: QrData };
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({
      ticket: expect.any(String),
      userId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      qrUrl: expect.stringContaining('/__sandbox/wechat/cgi-bin/showqrcode?ticket='),
      expireSeconds: 600,
      sandbox: true,
    });
    const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('kyfw_qr='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/kyfw\/web\/v1/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const image = await t.app.inject({
      method: 'GET',
      url: new URL(body.data.qrUrl).pathname + new URL(body.data.qrUrl).search,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('answers 0 until scanned, then 1 with a token, once; a first scan creates an account without phone', async () => {
    const { qr, cookie } = await loginQr();
    expect(await poll(qr.userId, cookie)).toEqual({
      code: 0,
      message: 'success',
      data: { loginStatus: '0', userInfo: null },
    });
    const openId = newOpenId();
    expect(await scan(t, qr.ticket, openId)).toMatchObject({ code: 0, data: { event: 'subscribe' } });
    const done = await poll(qr.userId, cookie);
    expect(done).toMatchObject({
      code: 0,
      data: { loginStatus: '1', userInfo: { token: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    const token = done.data.userInfo!.token;
    const info = await call<Record<string, unknown>>(t, '/getUserInfo', undefined, { token });
    expect(info.data).toMatchObject({
      phoneNumber: null,
      hasPassword: false,
      wxOpenId: `${openId.slice(0, 4)}****${openId.slice(-4)}`,
      // The WeChat that created the account is bound: the account holds the free services.
      entitlements: registrationSet('wechat_register'),
    });
    // Handed out once.
    expect((await poll(qr.userId, cookie)).code).toBe(ErrorCode.QR_EXPIRED);

    // The same WeChat account logs in to the same account next time (a SCAN event now).
    const second = await loginQr(cookie);
    expect(await scan(t, second.qr.ticket, openId)).toMatchObject({ data: { event: 'SCAN' } });
    const again = await poll(second.qr.userId, cookie);
    const info2 = await call<{ id: string }>(t, '/getUserInfo', undefined, {
      token: again.data.userInfo!.token,
    });
    expect(info2.data.id).toBe((info.data as { id: string }).id);
  });

  it('reveals nothing to another browser holding the session id', async () => {
    const { qr, cookie } = await loginQr();
    const stranger = await loginQr();
    await scan(t, qr.ticket, newOpenId());
    for (const other of [undefined, stranger.cookie, 'kyfw_qr=not-a-key']) {
      expect(await poll(qr.userId, other)).toEqual({
        code: ErrorCode.QR_EXPIRED,
        message: '二维码已过期，请重新扫码',
        data: null,
      });
    }
    // The owner still logs in.
    expect((await poll(qr.userId, cookie)).data.loginStatus).toBe('1');
  });

  it('answers 1005 for unknown and malformed ids', async () => {
    const { cookie } = await loginQr();
    for (const id of [randomBytes(32).toString('base64url'), 'short', 42, null]) {
      expect((await poll(id, cookie)).code).toBe(ErrorCode.QR_EXPIRED);
    }
  });

  it('expires with the QR (1005), and an expired QR cannot be scanned', async () => {
    const { qr, cookie } = await loginQr();
    t.clock.advance(600 * SECOND);
    expect((await poll(qr.userId, cookie)).code).toBe(ErrorCode.QR_EXPIRED);
    expect((await scan(t, qr.ticket, newOpenId())).code).toBe(ErrorCode.QR_EXPIRED);
  });

  it('does not hand out a scanned login after the pick-up grace', async () => {
    const { qr, cookie } = await loginQr();
    await scan(t, qr.ticket, newOpenId());
    t.clock.advance(2 * MINUTE + SECOND);
    expect((await poll(qr.userId, cookie)).code).toBe(ErrorCode.QR_EXPIRED);
  });
});

describe('WeChat callback', () => {
  it('answers the GET handshake only with a valid signature', async () => {
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
    const signature = computeWechatSignature(WECHAT_TOKEN, timestamp, '123');
    const good = await t.app.inject({
      method: 'GET',
      url: `/wechat/callback?signature=${signature}&timestamp=${timestamp}&nonce=123&echostr=hello-echo`,
    });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('hello-echo');
    const bad = await t.app.inject({
      method: 'GET',
      url: `/wechat/callback?signature=${'0'.repeat(40)}&timestamp=${timestamp}&nonce=123&echostr=hello-echo`,
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.body).not.toContain('hello-echo');
  });

  it('rejects pushes with a bad signature or an old timestamp, changing nothing', async () => {
    const { qr, cookie } = await loginQr();
    const xml = scanXml(newOpenId(), await sceneOf(qr.userId));
    const before = await t.db.selectFrom('wechat_events').select('dedupe_key').execute();
    expect((await push(xml, { token: 'someoneElse123' })).statusCode).toBe(403);
    const old = Math.floor(t.clock.now().getTime() / 1000) - 10 * 60;
    expect((await push(xml, { timestamp: old })).statusCode).toBe(403);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/wechat/callback',
      headers: { 'content-type': 'text/xml' },
      payload: xml,
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await poll(qr.userId, cookie)).data).toEqual({ loginStatus: '0', userInfo: null });
    const after = await t.db.selectFrom('wechat_events').select('dedupe_key').execute();
    expect(after).toHaveLength(before.length);
  });

  it('completes the session of the scene on a valid push; the platform’s retry of that push changes nothing', async () => {
    const { qr, cookie } = await loginQr();
    const openId = newOpenId();
    const xml = scanXml(openId, await sceneOf(qr.userId));
    const first = await push(xml);
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('success');
    expect((await poll(qr.userId, cookie)).data.loginStatus).toBe('1');
    // The same push again, freshly signed (a platform retry): acknowledged, ignored.
    const retry = await push(xml);
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe('success');
    expect((await poll(qr.userId, cookie)).code).toBe(ErrorCode.QR_EXPIRED);
    const accounts = await t.db.selectFrom('users').select('id').where('wx_open_id', '=', openId).execute();
    expect(accounts).toHaveLength(1);
  });

  it('ignores a captured signature replayed with another body (e.g. someone else’s openid on my QR)', async () => {
    // The victim's genuine scan of their own QR, as pushed by the platform.
    const victim = await loginQr();
    const victimOpenId = newOpenId();
    const captured = signedQuery();
    await push(scanXml(victimOpenId, await sceneOf(victim.qr.userId)), { query: captured });
    // The attacker reuses that signed URL to claim a scan of their own QR by the victim's WeChat.
    const attacker = await loginQr();
    const forged = scanXml(
      victimOpenId,
      await sceneOf(attacker.qr.userId),
      Math.floor(t.clock.now().getTime() / 1000) + 1,
    );
    const res = await push(forged, { query: captured });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('success');
    expect((await poll(attacker.qr.userId, attacker.cookie)).data).toEqual({
      loginStatus: '0',
      userInfo: null,
    });
    expect((await poll(victim.qr.userId, victim.cookie)).data.loginStatus).toBe('1');
  });

  it('processes the platform’s retry when the first delivery failed half-way', async () => {
    const { qr, cookie } = await loginQr();
    const openId = newOpenId();
    const xml = scanXml(openId, await sceneOf(qr.userId));
    // The first delivery fails inside our handler (a broken transaction): nothing is recorded.
    await t.db.schema
      .alterTable('users')
      .addCheckConstraint('test_no_new_wechat_users', sql`wx_open_id <> ${sql.lit(openId)}`)
      .execute();
    expect((await push(xml)).statusCode).toBe(500);
    await t.db.schema.alterTable('users').dropConstraint('test_no_new_wechat_users').execute();
    expect((await poll(qr.userId, cookie)).data.loginStatus).toBe('0');
    // The retry (same body, signed afresh) completes the login.
    expect((await push(xml)).body).toBe('success');
    expect((await poll(qr.userId, cookie)).data.loginStatus).toBe('1');
  });

  it('acknowledges events it does not handle', async () => {
    const xml = buildWechatXml({
      ToUserName: 'gh_sandbox00000',
      FromUserName: newOpenId(),
      CreateTime: Math.floor(t.clock.now().getTime() / 1000),
      MsgType: 'event',
      Event: 'unsubscribe',
      EventKey: '',
    });
    const res = await push(xml);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('success');
  });
});

describe('WeChat binding', () => {
  async function bindQr(token: string) {
    return call<QrData>(t, '/weixin/wx/getBindingRCode', undefined, { token });
  }

  it('needs a login', async () => {
    expect((await bindQr('')).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('binds the scanning WeChat to the phone account, which keeps the free services of its registration', async () => {
    const { token, phone } = await registerUser(t);
    const qr = await bindQr(token);
    expect(qr).toMatchObject({ code: 0, data: { ticket: expect.any(String), userId: expect.any(String) } });
    expect(await call(t, '/getUserInfo', { userId: qr.data.userId }, { token })).toEqual({
      code: 0,
      message: 'success',
      data: { wxOpenId: null },
    });
    const openId = newOpenId();
    await scan(t, qr.data.ticket, openId);
    const done = await call<Record<string, unknown>>(
      t,
      '/getUserInfo',
      { userId: qr.data.userId },
      { token },
    );
    expect(done).toMatchObject({
      code: 0,
      message: '绑定成功！',
      data: {
        phoneNumber: phone,
        wxOpenId: expect.stringContaining('****'),
        entitlements: registrationSet('phone_register'),
      },
    });
    expect((await bindQr(token)).code).toBe(ErrorCode.ALREADY_HAS_WECHAT);

    // That WeChat now logs in to the phone account.
    const login = await loginQr();
    await scan(t, login.qr.ticket, openId);
    const loginToken = (await poll(login.qr.userId, login.cookie)).data.userInfo!.token;
    expect((await call(t, '/getUserInfo', undefined, { token: loginToken })).data).toMatchObject({
      phoneNumber: phone,
    });
  });

  it('refuses a WeChat bound to another account, with a clear message', async () => {
    const owner = await registerUser(t);
    const openId = newOpenId();
    const ownerQr = await bindQr(owner.token);
    await scan(t, ownerQr.data.ticket, openId);

    const other = await registerUser(t);
    const qr = await bindQr(other.token);
    await scan(t, qr.data.ticket, openId);
    expect(await call(t, '/getUserInfo', { userId: qr.data.userId }, { token: other.token })).toEqual({
      code: ErrorCode.WECHAT_BOUND_ELSEWHERE,
      message: '该微信已绑定其他账号',
      data: null,
    });
    expect((await call(t, '/getUserInfo', undefined, { token: other.token })).data).toMatchObject({
      wxOpenId: null,
      entitlements: registrationSet('phone_register'),
    });
  });

  it('reveals nothing about another account’s binding session', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const qr = await bindQr(a.token);
    await scan(t, qr.data.ticket, newOpenId());
    expect(await call(t, '/getUserInfo', { userId: qr.data.userId }, { token: b.token })).toEqual({
      code: ErrorCode.QR_EXPIRED,
      message: '二维码已过期，请重新扫码',
      data: null,
    });
    // A login session id is not a binding session either.
    const login = await loginQr();
    expect((await call(t, '/getUserInfo', { userId: login.qr.userId }, { token: b.token })).code).toBe(
      ErrorCode.QR_EXPIRED,
    );
    expect((await call(t, '/getUserInfo', undefined, { token: b.token })).data).toMatchObject({
      wxOpenId: null,
    });
  });

  it('expires with the QR (1005)', async () => {
    const { token } = await registerUser(t);
    const qr = await bindQr(token);
    t.clock.advance(601 * SECOND);
    expect((await call(t, '/getUserInfo', { userId: qr.data.userId }, { token })).code).toBe(
      ErrorCode.QR_EXPIRED,
    );
  });
});

describe('entitlements API for other services', () => {
  it('consumes each entitlement once, atomically, and can give it back', async () => {
    const { token } = await registerUser(t);
    const qr = await call<QrData>(t, '/weixin/wx/getBindingRCode', undefined, { token });
    await scan(t, qr.data.ticket, newOpenId());
    const me = await call<{ id: string }>(t, '/getUserInfo', undefined, { token });
    const userId = me.data.id;

    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        consumeEntitlement(userId, 'free_check', { tx: t.db, usedFor: `order-${i}` }),
      ),
    );
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);
    expect(await consumeEntitlement(userId, 'free_check', { tx: t.db })).toBeNull();

    const list = await listEntitlements(userId, { tx: t.db });
    expect(list.find((e) => e.kind === 'free_check')?.usedAt).not.toBeNull();
    expect(list.find((e) => e.kind === 'free_aigc_detection')?.usedAt).toBeNull();

    expect(await restoreEntitlement(userId, 'free_check', { tx: t.db, usedFor: 'someone-else' })).toBe(false);
    expect(await restoreEntitlement(userId, 'free_check', { tx: t.db, usedFor: winners[0]!.usedFor! })).toBe(
      true,
    );
    expect(await consumeEntitlement(userId, 'free_check', { tx: t.db })).not.toBeNull();
  });

  it('rolls back with the transaction that used it', async () => {
    const { token } = await registerUser(t);
    const qr = await call<QrData>(t, '/weixin/wx/getBindingRCode', undefined, { token });
    await scan(t, qr.data.ticket, newOpenId());
    const userId = (await call<{ id: string }>(t, '/getUserInfo', undefined, { token })).data.id;
    await expect(
      t.db.transaction().execute(async (tx) => {
        expect(await consumeEntitlement(userId, 'ai_writing_trial', { tx })).not.toBeNull();
        throw new Error('order creation failed');
      }),
    ).rejects.toThrow('order creation failed');
    expect(await consumeEntitlement(userId, 'ai_writing_trial', { tx: t.db })).not.toBeNull();
  });
});
