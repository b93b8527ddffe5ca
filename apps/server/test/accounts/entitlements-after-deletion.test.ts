import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, enqueue } from '../../src/jobs/index.ts';
import { createInactivityJob } from '../../src/modules/accounts/accounts.jobs.ts';
import { loadDigestKey } from '../../src/modules/accounts/secrets.ts';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  DAY,
  MINUTE,
  newPhone,
  pw,
  qrCookieOf,
  registerUser,
  registrationSet,
  scan,
  sendCode,
} from './accounts-helper.ts';

/**
 * The free services of registration (or a first binding) are earned once per phone number and once
 * per WeChat account: deleting (or having closed) the account and coming back with the same phone or WeChat
 * earns nothing more. What stays after the erasure is a keyed digest of each identifier, nothing else.
 */

interface EntitlementView {
  kind: string;
  grantedBy: string;
  available: boolean;
}
interface Info {
  id: string;
  phoneNumber: string | null;
  wxOpenId: string | null;
  entitlements: EntitlementView[];
  entitlementsEarnedBefore: boolean;
}

const newOpenId = () => `o${randomBytes(20).toString('base64url').slice(0, 27)}`;

/** The personal-info page's call. */
async function info(t: AccountsTestApp, token: string): Promise<Info> {
  const res = await call<Info>(t, '/websiteUser/userInfo', undefined, { token });
  expect(res.code).toBe(0);
  return res.data;
}

/** Binds `openId` to the account through the bind QR and the user-info poll, as the web does. */
async function bindWechat(t: AccountsTestApp, token: string, openId: string): Promise<Info> {
  const qr = await call<{ ticket: string; userId: string }>(t, '/weixin/wx/getBindingRCode', undefined, {
    token,
  });
  expect(qr.code).toBe(0);
  await scan(t, qr.data.ticket, openId);
  const done = await call<Info>(t, '/getUserInfo', { userId: qr.data.userId }, { token });
  expect(done).toMatchObject({ code: 0, message: '绑定成功！', data: { wxOpenId: expect.any(String) } });
  return done.data;
}

/** Binds `phone` to a WeChat-created account (type-2 code). */
async function bindPhone(t: AccountsTestApp, token: string, phone: string): Promise<Info> {
  const code = await sendCode(t, phone, '2', { token });
  const res = await call<Info>(
    t,
    '/websiteUser/bindPhoneNumber',
    { phoneNumber: phone, checkCode: code, passWord: pw('bind-pass'), major: '法学', education: '硕士' },
    { token },
  );
  expect(res).toMatchObject({ code: 0, message: '绑定成功' });
  return res.data;
}

/** A first WeChat scan on the login QR: a new WeChat-only account, or the existing one. */
async function wechatLogin(t: AccountsTestApp, openId: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/kyfw/web/v1/qrCode', headers: { terminal: 'PC' } });
  const qr = (res.json() as { data: { ticket: string; userId: string } }).data;
  const cookie = qrCookieOf(res.headers['set-cookie']);
  await scan(t, qr.ticket, openId);
  return (await call<{ userInfo: { token: string } }>(t, '/loginStatus', { userId: qr.userId }, { cookie }))
    .data.userInfo.token;
}

async function deleteBySms(t: AccountsTestApp, token: string, phone: string): Promise<void> {
  t.clock.advance(MINUTE);
  const code = await sendCode(t, phone, '4', { token });
  expect(await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).toMatchObject({
    code: 0,
    message: '账号已注销',
  });
}

async function deleteByWechat(t: AccountsTestApp, token: string, openId: string): Promise<void> {
  const qr = await call<{ ticket: string; userId: string }>(t, '/websiteUser/deleteAccountRCode', undefined, {
    token,
  });
  await scan(t, qr.data.ticket, openId);
  expect(await call(t, '/websiteUser/deleteAccount', { userId: qr.data.userId }, { token })).toMatchObject({
    code: 0,
    message: '账号已注销',
    data: { deleted: true },
  });
}

/** HMAC-SHA256 under the key the server generated into DATA_DIR/secrets (no key configured here). */
function digestOf(t: AccountsTestApp, kind: 'phone' | 'wechat', value: string): string {
  const key = readFileSync(path.join(t.dataDir, 'secrets', 'account-digest.key'), 'utf8').trim();
  return createHmac('sha256', key).update(`${kind}:${value}`).digest('hex');
}

describe('free services after account deletion', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await buildAccountsApp();
  });
  afterAll(() => t.close());

  it('a phone that earned them earns nothing after delete and register again; another phone does', async () => {
    // Registering with the phone: the free services.
    const first = await registerUser(t);
    expect(await info(t, first.token)).toMatchObject({
      entitlements: registrationSet('phone_register'),
      entitlementsEarnedBefore: false,
    });
    const firstWechat = newOpenId();
    // Binding WeChat as well gives nothing more.
    expect((await bindWechat(t, first.token, firstWechat)).entitlements).toMatchObject(
      registrationSet('phone_register'),
    );

    await deleteBySms(t, first.token, first.phone);

    // The same phone registers again: a new account, without free services, and binding another
    // WeChat gives none either.
    t.clock.advance(MINUTE);
    const again = await registerUser(t, first.phone);
    expect(await info(t, again.token)).toMatchObject({
      phoneNumber: first.phone,
      entitlements: [],
      entitlementsEarnedBefore: true,
    });
    await bindWechat(t, again.token, newOpenId());
    expect(await info(t, again.token)).toMatchObject({
      phoneNumber: first.phone,
      wxOpenId: expect.any(String),
      entitlements: [],
      entitlementsEarnedBefore: true,
    });
    // The data export says the same.
    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { terminal: 'PC', token: again.token },
    });
    expect((exported.json() as { entitlements: unknown[] }).entitlements).toEqual([]);

    // The first account's WeChat, creating a new account of its own, earns nothing, nor by binding a
    // new phone.
    const wxToken = await wechatLogin(t, firstWechat);
    expect(await info(t, wxToken)).toMatchObject({ entitlements: [], entitlementsEarnedBefore: true });
    expect((await bindPhone(t, wxToken, newPhone())).entitlements).toEqual([]);

    // Someone else: a different phone still gets the free services.
    const other = await registerUser(t);
    expect(await info(t, other.token)).toMatchObject({
      entitlements: registrationSet('phone_register'),
      entitlementsEarnedBefore: false,
    });
  });

  it('a WeChat that earned them (by its first scan) earns nothing after delete and a new scan', async () => {
    const openId = newOpenId();
    const token = await wechatLogin(t, openId);
    expect((await info(t, token)).entitlements).toMatchObject(registrationSet('wechat_register'));
    const phone = newPhone();
    expect((await bindPhone(t, token, phone)).entitlements).toMatchObject(registrationSet('wechat_register'));
    await deleteByWechat(t, token, openId);

    const again = await wechatLogin(t, openId);
    expect(await info(t, again)).toMatchObject({
      phoneNumber: null,
      entitlements: [],
      entitlementsEarnedBefore: true,
    });
    expect((await bindPhone(t, again, newPhone())).entitlements).toEqual([]);
    // The phone of the deleted account is on record too.
    t.clock.advance(MINUTE);
    const byPhone = await registerUser(t, phone);
    expect((await info(t, byPhone.token)).entitlements).toEqual([]);
    expect((await bindWechat(t, byPhone.token, newOpenId())).entitlements).toEqual([]);
  });

  it('an account that never earned them leaves nothing: its new WeChat earns them later', async () => {
    const first = await registerUser(t);
    await deleteBySms(t, first.token, first.phone);
    t.clock.advance(MINUTE);
    // The phone earned them already: this account gets none, and binds a WeChat.
    const never = await registerUser(t, first.phone);
    const openId = newOpenId();
    expect((await bindWechat(t, never.token, openId)).entitlements).toEqual([]);
    await deleteBySms(t, never.token, first.phone);
    // That WeChat creating an account of its own earns them.
    const wxToken = await wechatLogin(t, openId);
    expect(await info(t, wxToken)).toMatchObject({
      entitlements: registrationSet('wechat_register'),
      entitlementsEarnedBefore: false,
    });
  });

  it('an account from before registration granted them gets them when its info is read', async () => {
    const old = await registerUser(t);
    const { id } = await info(t, old.token);
    await t.db.deleteFrom('entitlements').where('user_id', '=', id).execute();
    expect(await info(t, old.token)).toMatchObject({
      entitlements: registrationSet('phone_register'),
      entitlementsEarnedBefore: false,
    });
  });

  it('keeps only keyed digests: no phone, openid, account id or date of the account', async () => {
    const account = await registerUser(t);
    const openId = newOpenId();
    await bindWechat(t, account.token, openId);
    const userId = (await info(t, account.token)).id;
    await deleteBySms(t, account.token, account.phone);

    const rows = await t.db
      .selectFrom('entitlement_grant_digests')
      .selectAll()
      .where('digest', 'in', [digestOf(t, 'phone', account.phone), digestOf(t, 'wechat', openId)])
      .execute();
    expect(rows.map((r) => r.kind).sort()).toEqual(['phone', 'wechat']);
    expect(Object.keys(rows[0]).sort()).toEqual(['digest', 'kind', 'recorded_at']);
    const all = JSON.stringify(await t.db.selectFrom('entitlement_grant_digests').selectAll().execute());
    expect(all).not.toContain(account.phone);
    expect(all).not.toContain(openId);
    expect(all).not.toContain(userId);
    // Not a plain (unkeyed) hash of the number, which anyone could compute for every number.
    for (const text of [account.phone, `phone:${account.phone}`]) {
      expect(all).not.toContain(createHash('sha256').update(text).digest('hex'));
    }
    // The erased account itself keeps no entitlement rows.
    expect(
      await t.db.selectFrom('entitlements').select('id').where('user_id', '=', userId).execute(),
    ).toEqual([]);
  });
});

describe('free services after closure for inactivity', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await buildAccountsApp();
  });
  afterAll(() => t.close());

  it('a closed account’s phone earns nothing when it registers and binds again', async () => {
    const idle = await registerUser(t);
    await bindWechat(t, idle.token, newOpenId());
    const job = createInactivityJob({ now: t.clock.now, notice: { sms: null } });
    const worker = createWorker({
      db: t.db,
      definitions: [job],
      services: t.root.services,
      pollIntervalMs: 10,
    });
    const runJob = async () => {
      await enqueue(t.db, job, {});
      expect(await worker.tick()).toHaveLength(1);
    };
    // Notice at 11 months, closure once 12 months are reached and the notice is 30 days old.
    t.clock.advance(340 * DAY);
    await runJob();
    t.clock.advance(40 * DAY);
    await runJob();
    await worker.stop();
    expect(
      await t.db.selectFrom('users').select('status').where('status', '=', 'closed').execute(),
    ).toHaveLength(1);

    const again = await registerUser(t, idle.phone);
    expect(await info(t, again.token)).toMatchObject({ entitlements: [], entitlementsEarnedBefore: true });
    expect((await bindWechat(t, again.token, newOpenId())).entitlements).toEqual([]);
  });
});

describe('the digest key', () => {
  it('is the configured one, else generated once under DATA_DIR/secrets (0600); scaled production needs one', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-digest-key-'));
    try {
      const configured = 'k'.repeat(40);
      expect(
        loadDigestKey({ configured, dataDir, nodeEnv: 'production', databaseUrl: 'postgres://x/y' }),
      ).toBe(configured);
      expect(() => loadDigestKey({ dataDir, nodeEnv: 'production', databaseUrl: 'postgres://x/y' })).toThrow(
        'ACCOUNT_DIGEST_SECRET is required with DATABASE_URL in production (all machines share it)',
      );
      const generated = loadDigestKey({ dataDir, nodeEnv: 'development' });
      expect(generated).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const file = path.join(dataDir, 'secrets', 'account-digest.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadDigestKey({ dataDir, nodeEnv: 'production' })).toBe(generated);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
