import { expect } from 'vitest';
import { totpCode } from '../../src/modules/console/totp.ts';
import { type Envelope, type OrdersTestApp, SECOND } from '../orders/orders-helper.ts';

/** Calls to the console API of a test app: `post` with an optional staff cookie (and headers), and logins. */
export function consoleCalls(t: OrdersTestApp) {
  async function post<T>(path: string, body: unknown, cookie?: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1/admin${path}`,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
      payload: JSON.stringify(body),
    });
    return { res, body: res.json() as Envelope<T> };
  }

  /**
   * Logs in with the code the authenticator shows now (a fresh 30 s step), or with `secondFactor`
   * (a recovery code); answers the session cookie, or the refusal's envelope.
   */
  async function login(
    account: { username: string; password: string; totpSecret: string },
    secondFactor?: string,
  ): Promise<{ cookie: string | null; body: Envelope<unknown> }> {
    t.clock.advance(31 * SECOND);
    const { res, body } = await post('/auth/login', {
      username: account.username,
      password: account.password,
      totpCode: secondFactor ?? totpCode(account.totpSecret, t.clock.now()),
    });
    const setCookie = res.headers['set-cookie'];
    return { cookie: setCookie ? String(setCookie).split(';')[0]! : null, body };
  }

  /** Logs in and answers the cookie (the login must succeed). */
  async function cookieOf(account: { username: string; password: string; totpSecret: string }) {
    const { cookie, body } = await login(account);
    expect(body.code).toBe(0);
    return cookie!;
  }

  function auditRows(action: string) {
    return t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .orderBy('id', 'desc')
      .execute();
  }

  return { post, login, cookieOf, auditRows };
}
