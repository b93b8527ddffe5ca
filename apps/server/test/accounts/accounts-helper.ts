import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { md5Hex } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.ts';
import type { ProviderOverrides, ServerModule } from '../../src/modules/types.ts';
import type { ServiceRoot } from '../../src/services.ts';
import { startTestApp, testConfig } from '../helper.ts';

/** A clock tests move by hand; every time rule of the accounts module reads it. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function createClock(start = '2026-03-02T02:00:00.000Z'): TestClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export interface AccountsTestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  clock: TestClock;
  dataDir: string;
  root: ServiceRoot;
  close(): Promise<void>;
}

/**
 * The real app (every module) on a fresh database with sandbox SMS and WeChat whose state lives in
 * a temporary DATA_DIR of its own, and a hand-moved clock. Password hashing is cheaper than in
 * production (scrypt N = 2^12) to keep the suite fast; the code path is the same.
 * Per-IP SMS limits are raised unless `env` says otherwise, so tests can share an address.
 */
export async function buildAccountsApp(
  options: {
    env?: Record<string, string>;
    clock?: TestClock;
    modules?: readonly ServerModule[];
    providers?: ProviderOverrides;
  } = {},
): Promise<AccountsTestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-accounts-'));
  const clock = options.clock ?? createClock();
  const handle = await createTestDb();
  const config = testConfig({
    DATA_DIR: dataDir,
    PASSWORD_SCRYPT_COST: '12',
    SMS_IP_MAX_PER_MINUTE: '1000',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_CAPTCHA_AFTER: '100000',
    SMS_IP_MAX_PER_DAY: '1000',
    ...options.env,
  });
  const started = await startTestApp({
    config,
    db: handle.db,
    modules: options.modules,
    clock: clock.now,
    providers: options.providers,
  });
  return {
    app: started.app,
    db: handle.db,
    config,
    clock,
    dataDir,
    root: started.root,
    async close() {
      await started.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let phoneCounter = 0;
/** A fresh valid mainland number per call (per test file; files have their own databases). */
export function newPhone(): string {
  phoneCounter += 1;
  return `139${String(10_000_000 + phoneCounter * 7919).padStart(8, '0')}`;
}

let ipCounter = 0;
/** A fresh client address, so per-IP limits of one test do not touch another. */
export function newIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export const pw = (plain: string) => md5Hex(plain);

export interface CallOptions {
  token?: string;
  ip?: string;
  cookie?: string;
}

/** POSTs JSON to an API path (without /kyfw/web/v1) and returns the envelope. */
export async function call<T = unknown>(
  t: { app: FastifyInstance },
  apiPath: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${apiPath}`,
    headers: {
      terminal: 'PC',
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.cookie === undefined ? {} : { cookie: options.cookie }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    remoteAddress: options.ip ?? '127.0.0.1',
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} from ${apiPath}: ${res.body}`);
  return res.json() as Envelope<T>;
}

/** The last code the sandbox sent to `phone`, read through the dev control GET /__dev/sms/last. */
export async function lastSms(t: { app: FastifyInstance }, phone: string) {
  const res = await t.app.inject({ method: 'GET', url: `/__dev/sms/last?phone=${phone}` });
  return res.json() as Envelope<{ code: string; type: string; sentAt: string } | null>;
}

/** Sends a code through /sendCheckCode and returns it (read from the sandbox). */
export async function sendCode(
  t: { app: FastifyInstance },
  phone: string,
  type: '1' | '2' | '3' | '4',
  options: CallOptions = {},
): Promise<string> {
  const sent = await call(t, '/sendCheckCode', { phoneNumber: phone, type }, options);
  if (sent.code !== 0) throw new Error(`sendCheckCode failed: ${sent.code} ${sent.message}`);
  const last = await lastSms(t, phone);
  if (!last.data) throw new Error('no SMS in the sandbox');
  return last.data.code;
}

/** Registers a new account by phone and returns its token. */
export async function registerUser(
  t: { app: FastifyInstance },
  phone = newPhone(),
  password = 'secret-123',
  options: CallOptions = {},
): Promise<{ phone: string; token: string; password: string }> {
  const code = await sendCode(t, phone, '1', options);
  const res = await call<{ token: string }>(
    t,
    '/addUserByPhone',
    { phoneNumber: phone, checkCode: code, passWord: pw(password) },
    options,
  );
  if (res.code !== 0) throw new Error(`register failed: ${res.code} ${res.message}`);
  return { phone, token: res.data.token, password };
}

/** The scan of a QR ticket by a WeChat user, through POST /__dev/wechat/scan. */
export async function scan(t: { app: FastifyInstance }, ticket: string, openId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/__dev/wechat/scan',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ ticket, openId }),
  });
  return res.json() as Envelope<{ event: string; attempts: number } | null>;
}

/** The kyfw_qr cookie set by a response, as a Cookie header value. */
export function qrCookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith('kyfw_qr='));
  if (!found) throw new Error('no kyfw_qr cookie');
  return found.split(';')[0];
}

/**
 * The set every account gets at registration (accounts/benefits.ts): the free check, the free AIGC
 * detection and the AI-writing trial, each usable now that its service exists.
 */
export function registrationSet(grantedBy: string) {
  return [
    { kind: 'ai_writing_trial', grantedBy, available: true, comingSoon: false },
    { kind: 'free_aigc_detection', grantedBy, available: true, comingSoon: false },
    { kind: 'free_check', grantedBy, available: true, comingSoon: false },
  ];
}
