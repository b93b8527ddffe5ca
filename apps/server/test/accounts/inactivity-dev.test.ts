import { existsSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createWorker, enqueue, startScheduler } from '../../src/jobs/index.ts';
import { accountsSchedules, createInactivityJob } from '../../src/modules/accounts/accounts.jobs.ts';
import { createSandboxSmsProvider, SmsOutbox } from '../../src/providers/sms/index.ts';
import {
  type AccountsTestApp,
  buildAccountsApp,
  call,
  DAY,
  newPhone,
  pw,
  registerUser,
  sendCode,
} from './accounts-helper.ts';

function monthsLater(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

describe('closing inactive accounts (scheduled job)', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await buildAccountsApp();
  });
  afterAll(() => t.close());

  it('is registered with the worker and scheduled daily', async () => {
    expect(t.root.jobs.map((d) => d.name)).toEqual(
      expect.arrayContaining(['accounts.close-inactive', 'accounts.purge-expired']),
    );
    expect(t.root.schedules).toEqual(expect.arrayContaining(accountsSchedules));
    const scheduler = startScheduler({ db: t.db, schedules: accountsSchedules, checkIntervalMs: 3_600_000 });
    await scheduler.tick(new Date('2026-05-01T21:00:00Z'));
    scheduler.stop();
    const names = (await t.db.selectFrom('jobs').select('name').execute()).map((j) => j.name);
    expect(names).toEqual(expect.arrayContaining(['accounts.close-inactive', 'accounts.purge-expired']));
  });

  it('sends a notice at 11 months, closes after 12 months, spares accounts that logged in', async () => {
    const start = t.clock.now();
    const outbox = createSandboxSmsProvider({ outbox: new SmsOutbox() });
    const job = createInactivityJob({ now: t.clock.now, notice: { sms: outbox, template: 'SMS_NOTICE_1' } });
    const worker = createWorker({
      db: t.db,
      definitions: [job],
      services: t.root.services,
      pollIntervalMs: 10,
    });
    const runJob = async () => {
      await enqueue(t.db, job, {});
      const ran = await worker.tick();
      expect(ran).toHaveLength(1);
      const row = await t.db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', ran[0])
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('succeeded');
      return row.result as { noticed: number; closed: number };
    };

    const idle = await registerUser(t);
    const comesBack = await registerUser(t);
    const active = await registerUser(t);

    // 11 months and a day later: notices to the two idle ones; the active one logged in meanwhile.
    t.clock.advance(monthsLater(start, 11).getTime() - start.getTime() - DAY);
    expect((await call(t, '/login', { phoneNumber: active.phone, passWord: pw(active.password) })).code).toBe(
      0,
    );
    t.clock.advance(2 * DAY);
    const first = await runJob();
    expect(first.noticed).toBeGreaterThanOrEqual(2);
    expect(first.closed).toBe(0);
    const notice = outbox.lastMessage(idle.phone);
    expect(notice).toMatchObject({ type: 'inactivity_notice', code: expect.stringMatching(/^\d+$/) });
    expect(Number(notice!.code)).toBeGreaterThanOrEqual(29);
    expect(outbox.lastMessage(active.phone)).toBeNull();
    const idleId = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('phone_number', '=', idle.phone)
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      await t.db.selectFrom('account_notices').selectAll().where('user_id', '=', idleId).execute(),
    ).toEqual([expect.objectContaining({ kind: 'inactivity', channel: 'sms' })]);

    // Running again the same day notices nobody twice and closes nothing.
    expect(await runJob()).toEqual({ noticed: 0, closed: 0 });

    // One of them logs in after the notice.
    expect(
      (await call(t, '/login', { phoneNumber: comesBack.phone, passWord: pw(comesBack.password) })).code,
    ).toBe(0);

    // 12 months and a few days after the start: the idle account is closed, nobody else.
    t.clock.advance(monthsLater(start, 12).getTime() - t.clock.now().getTime() + 3 * DAY);
    const second = await runJob();
    expect(second.closed).toBeGreaterThanOrEqual(1);
    const closed = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', idleId)
      .executeTakeFirstOrThrow();
    expect(closed).toMatchObject({ status: 'closed', phone_number: null, password_hash: null });
    expect((await call(t, '/getUserInfo', undefined, { token: idle.token })).code).toBe(
      ErrorCode.UNAUTHORIZED,
    );
    for (const spared of [comesBack, active]) {
      expect(
        await t.db
          .selectFrom('users')
          .select('status')
          .where('phone_number', '=', spared.phone)
          .executeTakeFirst(),
      ).toEqual({ status: 'active' });
    }
    // The closed account's phone may register anew.
    const code = await sendCode(t, idle.phone, '1');
    expect(
      (
        await call(t, '/addUserByPhone', {
          phoneNumber: idle.phone,
          checkCode: code,
          passWord: pw('fresh-start'),
        })
      ).code,
    ).toBe(0);
  });

  it('always gives 30 days’ notice, even to an account already past 12 months', async () => {
    const start = t.clock.now();
    const job = createInactivityJob({ now: t.clock.now, notice: { sms: null } });
    const worker = createWorker({ db: t.db, definitions: [job], services: t.root.services });
    const late = await registerUser(t);
    t.clock.advance(monthsLater(start, 13).getTime() - start.getTime());
    await enqueue(t.db, job, {});
    await worker.tick();
    const status = () =>
      t.db.selectFrom('users').select('status').where('phone_number', '=', late.phone).executeTakeFirst();
    expect(await status()).toEqual({ status: 'active' });
    t.clock.advance(29 * DAY);
    await enqueue(t.db, job, {});
    await worker.tick();
    expect(await status()).toEqual({ status: 'active' });
    t.clock.advance(DAY);
    await enqueue(t.db, job, {});
    await worker.tick();
    expect(await status()).toBeUndefined(); // closed: the phone is gone from the account
  });
});

describe('dev controls and sandboxes', () => {
  let sandbox: AccountsTestApp;
  let real: AccountsTestApp;
  beforeAll(async () => {
    [sandbox, real] = await Promise.all([
      buildAccountsApp(),
      buildAccountsApp({
        env: {
          // Real SMS and WeChat (payments stay in their sandbox): no account dev controls.
          SMS_PROVIDER: 'tencent',
          TENCENT_SECRET_ID: 'AKIDtest',
          TENCENT_SECRET_KEY: 'secret',
          TENCENT_SMS_APP_ID: '1400000000',
          TENCENT_SMS_SIGN_NAME: '科研服务',
          TENCENT_SMS_TEMPLATE_ID: '123456',
          WECHAT_PROVIDER: 'real',
          WECHAT_APP_ID: 'wx0000000000000000',
          WECHAT_APP_SECRET: 'not-a-real-secret',
          WECHAT_TOKEN: 'realToken123',
        },
      }),
    ]);
  });
  afterAll(() => Promise.all([sandbox.close(), real.close()]));

  it('GET /__dev/sms/last reads the sandbox outbox, kept under DATA_DIR/sandbox', async () => {
    const phone = newPhone();
    expect(
      (await sandbox.app.inject({ method: 'GET', url: `/__dev/sms/last?phone=${phone}` })).json(),
    ).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
    });
    const code = await sendCode(sandbox, phone, '1');
    const last = (await sandbox.app.inject({ method: 'GET', url: `/__dev/sms/last?phone=${phone}` })).json();
    expect(last).toEqual({
      code: 0,
      message: 'success',
      data: { code, type: '1', sentAt: expect.any(String) },
    });
    expect(existsSync(path.join(sandbox.dataDir, 'sandbox', 'sms-outbox.jsonl'))).toBe(true);
  });

  it('POST /__dev/wechat/scan refuses unknown tickets', async () => {
    const res = await sandbox.app.inject({
      method: 'POST',
      url: '/__dev/wechat/scan',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ticket: 'no-such-ticket-0000', openId: 'oTest' }),
    });
    expect(res.json()).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND });
  });

  it('are absent with real providers', async () => {
    const sms = await real.app.inject({ method: 'GET', url: `/__dev/sms/last?phone=${newPhone()}` });
    expect(sms.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    const wechat = await real.app.inject({
      method: 'POST',
      url: '/__dev/wechat/scan',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ticket: 'x', openId: 'y' }),
    });
    expect(wechat.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    const page = await real.app.inject({
      method: 'GET',
      url: '/__sandbox/wechat/cgi-bin/showqrcode?ticket=abc',
    });
    expect(page.statusCode).not.toBe(200);
    expect(existsSync(path.join(real.dataDir, 'sandbox', 'sms-outbox.jsonl'))).toBe(false);
    expect(existsSync(path.join(real.dataDir, 'sandbox', 'wechat-sandbox.json'))).toBe(false);
  });

  it('SMS and WeChat follow PROVIDERS unless set; production refuses a sandbox SMS or WeChat', () => {
    expect(loadConfig({}).sms.SMS_PROVIDER).toBe('sandbox');
    expect(loadConfig({}).wechat.WECHAT_PROVIDER).toBe('sandbox');
    expect(loadConfig({ SMS_PROVIDER: 'aliyun' }).sms.SMS_PROVIDER).toBe('aliyun');
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems : [String(error)];
      }
    };
    expect(problems({ NODE_ENV: 'production', PROVIDERS: 'real', SMS_PROVIDER: 'sandbox' })).toContain(
      'SMS_PROVIDER: sandbox is refused with NODE_ENV=production',
    );
    expect(problems({ NODE_ENV: 'production', PROVIDERS: 'real', WECHAT_PROVIDER: 'sandbox' })).toContain(
      'WECHAT_PROVIDER: sandbox is refused with NODE_ENV=production',
    );
    expect(problems({ NODE_ENV: 'production', PROVIDERS: 'real', SMS_PROVIDER: 'tencent' })).not.toContain(
      'SMS_PROVIDER: sandbox is refused with NODE_ENV=production',
    );
    // mail too: PROVIDERS=real means SMTP, whose host and sender are then required
    expect(problems({ NODE_ENV: 'production', PROVIDERS: 'real', MAIL_PROVIDER: 'sandbox' })).toContain(
      'MAIL_PROVIDER: sandbox is refused with NODE_ENV=production',
    );
    expect(problems({ NODE_ENV: 'production', PROVIDERS: 'real' })).toEqual(
      expect.arrayContaining([
        'SMTP_HOST is required when MAIL_PROVIDER=smtp',
        'MAIL_FROM is required when MAIL_PROVIDER=smtp',
      ]),
    );
    expect(loadConfig({ PROVIDERS: 'sandbox' }).mail.MAIL_PROVIDER).toBe('sandbox');
  });
});
