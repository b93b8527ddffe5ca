// The demo mode (NODE_ENV=production with ALLOW_SANDBOX_IN_PRODUCTION=true, issue 22): the /__dev
// controls (read any phone's SMS code, mark an order paid, switch on faults) answer only a request
// made on this machine (loopback, through no proxy) or one carrying DEV_CONTROLS_SECRET, and every
// page says that the site is a demo.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const SECRET = 'demo-controls-secret-0123456789abcdef';
const DEMO_ENV = { NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true', LOG_LEVEL: 'silent' };

let dist: string;
const apps: TestApp[] = [];
beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'kyfw-demo-web-'));
  await writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><!--kyfw-config--></head><body><div id="root"></div></body></html>',
  );
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await rm(dist, { recursive: true, force: true });
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await buildTestApp({ env: { WEB_DIST_DIR: dist, ...env } });
  apps.push(t);
  return t;
}

/** The dev controls a visitor could abuse: read a code, pay an order, break the LLM. */
function controls(t: TestApp, headers: Record<string, string>, remoteAddress: string) {
  return Promise.all([
    t.app.inject({ method: 'GET', url: '/__dev/sms/last?phone=13800138000', headers, remoteAddress }),
    t.app.inject({
      method: 'POST',
      url: '/__dev/pay',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ orderNo: 'KY0000000000000000' }),
      remoteAddress,
    }),
    t.app.inject({
      method: 'POST',
      url: '/__dev/llm/faults',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ serverError: 1 }),
      remoteAddress,
    }),
  ]);
}

const REFUSED = {
  code: ErrorCode.FORBIDDEN,
  message: '演示环境的开发控制只接受本机请求或携带开发控制密钥的请求',
  data: null,
};

/** The control ran: no SMS was sent to that phone yet, so it answers “none” (1010), not a refusal. */
const ANSWERED = { code: ErrorCode.RESOURCE_NOT_FOUND };

describe('/__dev in the demo mode', () => {
  it('refuses a request from another machine, and one forwarded by a proxy on this machine', async () => {
    const t = await app(DEMO_ENV);
    for (const res of await controls(t, {}, '203.0.113.9')) expect(res.json()).toEqual(REFUSED);
    // A reverse proxy on the same host without TRUST_PROXY: the socket is loopback, the visitor is not.
    for (const res of await controls(t, { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1')) {
      expect(res.json()).toEqual(REFUSED);
    }
    // Nothing was switched on: the LLM faults are still off.
    const faults = await t.app.inject({
      method: 'GET',
      url: '/__dev/llm/faults',
      remoteAddress: '127.0.0.1',
    });
    expect(faults.json().data.faults).toMatchObject({ serverError: 0 });
  });

  it('refuses a visitor seen through a trusted proxy (TRUST_PROXY) even though the proxy is loopback', async () => {
    const t = await app({ ...DEMO_ENV, TRUST_PROXY: '127.0.0.1' });
    for (const res of await controls(t, { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1')) {
      expect(res.json()).toEqual(REFUSED);
    }
  });

  it('answers on loopback, and from anywhere with the secret; a wrong secret is refused', async () => {
    const t = await app({ ...DEMO_ENV, DEV_CONTROLS_SECRET: SECRET });
    const sms = () => t.app.inject({ method: 'GET', url: '/__dev/sms/last?phone=13800138000' });
    expect((await sms()).json()).toMatchObject(ANSWERED);
    const remote = (secret: string) =>
      t.app.inject({
        method: 'GET',
        url: '/__dev/sms/last?phone=13800138000',
        headers: { 'x-dev-controls-secret': secret },
        remoteAddress: '203.0.113.9',
      });
    expect((await remote(SECRET)).json()).toMatchObject(ANSWERED);
    expect((await remote(`${SECRET}x`)).json()).toEqual(REFUSED);
  });

  it('shows every page as a demo, outside the app so no page can leave it out', async () => {
    const t = await app(DEMO_ENV);
    for (const url of ['/', '/check', '/user/order/write', '/admin']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body).toContain('id="kyfw-demo-banner"');
      expect(res.body).toContain('演示站点');
      expect(res.body).toContain('"demo":true');
    }
  });
});

describe('outside the demo mode', () => {
  it('development keeps the controls open and shows no banner', async () => {
    const t = await app({});
    const [sms] = await controls(t, {}, '203.0.113.9');
    expect(sms.json()).toMatchObject(ANSWERED);
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain('kyfw-demo-banner');
  });

  it('DEV_CONTROLS_SECRET is validated at start', () => {
    expect(() => loadConfig({ DEV_CONTROLS_SECRET: 'short' })).toThrow(/DEV_CONTROLS_SECRET: /);
    expect(loadConfig({ DEV_CONTROLS_SECRET: SECRET }).devControlsSecret).toBe(SECRET);
  });
});
