// Accounts for journeys: registers a user through the API with the sandbox SMS code (POST
// /sendCheckCode, GET /__dev/sms/last, POST /addUserByPhone) and logs a browser context in by
// setting the token cookie, the way the web app keeps it (spec §3: cookie `token`, 7 days).
import { createHash, randomInt } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';

export const API_PREFIX = '/kyfw/web/v1';

export interface TestUser {
  phone: string;
  password: string;
  token: string;
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** An API call in the envelope; throws with the server's message when `code !== 0`. */
export async function api<T = unknown>(
  baseUrl: string,
  path: string,
  body: unknown = {},
  token = '',
): Promise<T> {
  const res = await fetch(`${baseUrl}${path.startsWith('/__') ? '' : API_PREFIX}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, terminal: 'PC' },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

/** A random mainland mobile number (1, then 3–9, then 9 digits). */
export function randomPhone(): string {
  return `1${randomInt(3, 10)}${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

/**
 * Registers a new account with the sandbox SMS code. The server's per-IP SMS limits must allow it
 * (start the server with SMS_IP_MAX_PER_MINUTE etc. raised when a suite registers several users).
 */
export async function registerUser(
  baseUrl: string,
  options: { phone?: string; password?: string } = {},
): Promise<TestUser> {
  const phone = options.phone ?? randomPhone();
  const password = options.password ?? 'kyfw-e2e-pass';
  await api(baseUrl, '/sendCheckCode', { phoneNumber: phone, type: '1' });
  const res = await fetch(`${baseUrl}/__dev/sms/last?phone=${phone}`);
  const sms = (await res.json()) as Envelope<{ code: string } | null>;
  if (sms.code !== 0 || !sms.data) throw new Error(`no sandbox SMS for ${phone}: ${sms.message}`);
  const { token } = await api<{ token: string }>(baseUrl, '/addUserByPhone', {
    phoneNumber: phone,
    checkCode: sms.data.code,
    passWord: createHash('md5').update(password).digest('hex'),
  });
  return { phone, password, token };
}

/** Logs the browser context in as `user` (the token cookie the web app reads). */
export async function logInContext(
  context: BrowserContext,
  baseUrl: string,
  user: Pick<TestUser, 'token'>,
): Promise<void> {
  await context.addCookies([{ name: 'token', value: user.token, url: baseUrl }]);
}

/** Server environment for suites that register several users from one IP. */
export const MANY_USERS_ENV: Record<string, string> = {
  SMS_IP_MAX_PER_MINUTE: '100',
  SMS_IP_MAX_PER_HOUR: '1000',
  SMS_IP_CAPTCHA_AFTER: '100000',
  SMS_IP_MAX_PER_DAY: '10000',
};
