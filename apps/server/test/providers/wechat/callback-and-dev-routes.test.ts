import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createSmsProvider, smsConfigSchema } from '../../../src/providers/sms/index.ts';
import {
  computeWechatSignature,
  createWechatAdapter,
  createWechatProvider,
  type DeliveryTransport,
  devAccountRoutes,
  injectFetch,
  injectTransport,
  listWechatConfigProblems,
  type WechatEvent,
  WechatSandboxPlatform,
  type WechatSetup,
  wechatCallbackRoutes,
  wechatConfigSchema,
} from '../../../src/providers/wechat/index.ts';

const CALLBACK_PATH = '/wechat/callback';
const TOKEN = 'kyfwtoken123';

interface Harness {
  app: FastifyInstance;
  setup: WechatSetup;
  /** Events handled once each, deduplicated on idempotencyKey as the accounts service must. */
  handled: WechatEvent[];
  /** Every event the callback parsed, duplicates included. */
  seen: WechatEvent[];
  failNext: { count: number };
  clock: { now: number };
}

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) {
    await h.app.close();
    await h.setup.close();
  }
});

async function build(): Promise<Harness> {
  const clock = { now: Date.now() };
  const setup = createWechatProvider(wechatConfigSchema.parse({ WECHAT_TOKEN: TOKEN }), {
    publicBaseUrl: 'http://localhost:3000',
    callbackUrl: `http://localhost:3000${CALLBACK_PATH}`,
    now: () => clock.now,
  });
  const sms = createSmsProvider(smsConfigSchema.parse({}));
  const handled: WechatEvent[] = [];
  const seen: WechatEvent[] = [];
  const keys = new Set<string>();
  const failNext = { count: 0 };
  const app = Fastify();
  await app.register(wechatCallbackRoutes, {
    provider: setup.provider,
    path: CALLBACK_PATH,
    onEvent: async (event) => {
      seen.push(event);
      if (failNext.count > 0) {
        failNext.count -= 1;
        throw new Error('database briefly unavailable');
      }
      if (keys.has(event.idempotencyKey)) return;
      keys.add(event.idempotencyKey);
      handled.push(event);
    },
  });
  await app.register(devAccountRoutes, { sms: sms.sandbox, wechat: setup.sandbox });
  await sms.provider.send({ phone: '13800138000', purpose: '1', params: { code: '135790' } });
  const h = { app, setup, handled, seen, failNext, clock };
  open.push(h);
  return h;
}

async function devScan(app: FastifyInstance, ticket: string, openId: string) {
  const res = await app.inject({ method: 'POST', url: '/__dev/wechat/scan', payload: { ticket, openId } });
  expect(res.statusCode).toBe(200);
  return res.json() as { code: number; message: string; data: { event: string; attempts: number } | null };
}

describe('sandbox WeChat end to end: QR, dev scan, signed callback', () => {
  it('serves the QR image and the scan page under /__sandbox/wechat', async () => {
    const { app, setup } = await build();
    expect(setup.provider.kind).toBe('sandbox');
    const qr = await setup.provider.createQr({ sceneStr: 'login:one', expireSeconds: 600 });
    expect(qr.imageUrl).toBe(`http://localhost:3000/__sandbox/wechat/cgi-bin/showqrcode?ticket=${qr.ticket}`);
    expect(qr.url).toBe(`http://localhost:3000/__sandbox/wechat/scan-page?ticket=${qr.ticket}`);
    const image = await app.inject({ url: new URL(qr.imageUrl).pathname + new URL(qr.imageUrl).search });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const page = await app.inject({ url: new URL(qr.url).pathname + new URL(qr.url).search });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('模拟扫码');
    expect(page.body).toContain(JSON.stringify(qr.ticket));
    expect(page.body).toContain('/__dev/wechat/scan');
  });

  it('delivers subscribe for a first scan and SCAN for the next, with our scene, through the callback', async () => {
    const { app, setup, handled } = await build();
    const qr = await setup.provider.createQr({ sceneStr: 'login:two', expireSeconds: 600 });
    const first = await devScan(app, qr.ticket, 'oAlice');
    expect(first).toMatchObject({ code: 0, data: { event: 'subscribe', attempts: 1 } });
    const bind = await setup.provider.createQr({ sceneStr: 'bind:three', expireSeconds: 600 });
    const second = await devScan(app, bind.ticket, 'oAlice');
    expect(second.data?.event).toBe('SCAN');
    expect(handled.map((e) => [e.type, e.openId, e.sceneStr, e.ticket])).toEqual([
      ['subscribe', 'oAlice', 'login:two', qr.ticket],
      ['SCAN', 'oAlice', 'bind:three', bind.ticket],
    ]);
  });

  it('rejects a scan of an expired ticket with 1005 and pushes nothing', async () => {
    const { app, setup, seen, clock } = await build();
    const qr = await setup.provider.createQr({ sceneStr: 'login:late', expireSeconds: 60 });
    clock.now += 60_001;
    const res = await devScan(app, qr.ticket, 'oBob');
    expect(res).toEqual({ code: 1005, message: '二维码已过期，请重新扫码', data: null });
    expect(seen).toHaveLength(0);
  });

  it('answers an unknown ticket and a bad body with non-zero codes and Chinese messages', async () => {
    const { app } = await build();
    const unknown = await devScan(app, 'A'.repeat(48), 'oBob');
    expect(unknown).toMatchObject({ code: 1010, message: '二维码不存在' });
    const bad = await devScan(app, 'A'.repeat(48), 'o<script>');
    expect(bad.code).toBe(1001);
    expect(bad.message).toMatch(/openId/);
    const missing = (await app.inject({ method: 'POST', url: '/__dev/wechat/scan', payload: {} })).json();
    expect(missing).toMatchObject({ code: 1001, message: '请提供二维码 ticket' });
  });

  it('retries a push our callback failed, with the same idempotency key', async () => {
    const { app, setup, handled, seen, failNext } = await build();
    const qr = await setup.provider.createQr({ sceneStr: 'login:retry', expireSeconds: 600 });
    failNext.count = 1;
    const res = await devScan(app, qr.ticket, 'oCarol');
    expect(res).toMatchObject({ code: 0, data: { event: 'subscribe', attempts: 2 } });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.idempotencyKey).toBe(seen[1]!.idempotencyKey);
    expect(handled).toHaveLength(1);
  });

  it('reports a callback that fails every attempt', async () => {
    const { app, setup, handled, failNext } = await build();
    const qr = await setup.provider.createQr({ sceneStr: 'login:down', expireSeconds: 600 });
    failNext.count = 3;
    const res = await devScan(app, qr.ticket, 'oDave');
    expect(res).toEqual({
      code: 1000,
      message: '扫码事件推送失败：回调接口未正确响应，二维码仍然有效，请重试',
      data: null,
    });
    expect(handled).toHaveLength(0);
    // Not expired: the same QR scanned again goes through.
    const again = await devScan(app, qr.ticket, 'oDave');
    expect(again).toMatchObject({ code: 0 });
    expect(handled).toHaveLength(1);
  });

  it('makes a replayed push detectable, refuses it once stale, and refuses forged signatures', async () => {
    const { app, setup, handled, seen, clock } = await build();
    const qr = await setup.provider.createQr({ sceneStr: 'login:replay', expireSeconds: 600 });
    const captured: { url: string; body: string; headers: Record<string, string> }[] = [];
    const inject = injectTransport(app);
    const capture: DeliveryTransport = async (req) => {
      captured.push(req);
      return inject(req);
    };
    await setup.sandbox!.scan({ ticket: qr.ticket, openId: 'oEve' }, { transport: capture });
    const push = captured[0]!;
    const url = new URL(push.url);

    const replay = await app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: push.headers,
      payload: push.body,
    });
    expect(replay.statusCode).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    expect(handled).toHaveLength(1);

    clock.now += 5 * 60_000 + 1000;
    const stale = await app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: push.headers,
      payload: push.body,
    });
    expect(stale.statusCode).toBe(403);

    const forged = new URL(url);
    forged.searchParams.set(
      'signature',
      computeWechatSignature('guessed-token', url.searchParams.get('timestamp')!, '1'),
    );
    forged.searchParams.set('nonce', '1');
    const bad = await app.inject({
      method: 'POST',
      url: forged.pathname + forged.search,
      headers: push.headers,
      payload: push.body,
    });
    expect(bad.statusCode).toBe(403);
    const unsigned = await app.inject({
      method: 'POST',
      url: CALLBACK_PATH,
      headers: push.headers,
      payload: push.body,
    });
    expect(unsigned.statusCode).toBe(403);
    expect(seen).toHaveLength(2);
  });

  it('answers the server-configuration handshake with echostr only when signed', async () => {
    const { app, clock } = await build();
    const timestamp = String(Math.floor(clock.now / 1000));
    const signature = computeWechatSignature(TOKEN, timestamp, '42');
    const ok = await app.inject({
      url: `${CALLBACK_PATH}?signature=${signature}&timestamp=${timestamp}&nonce=42&echostr=hello123`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('hello123');
    const bad = await app.inject({
      url: `${CALLBACK_PATH}?signature=${'0'.repeat(40)}&timestamp=${timestamp}&nonce=42&echostr=hello123`,
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.body).not.toContain('hello123');
  });

  it('mounts the SMS dev control too', async () => {
    const { app } = await build();
    const res = (await app.inject({ url: '/__dev/sms/last?phone=13800138000' })).json();
    expect(res).toMatchObject({ code: 0, data: { code: '135790', type: '1' } });
  });
});

describe('delivery over HTTP, as the platform does', () => {
  it('pushes to a listening callback URL and retries after a timeout', async () => {
    const APP = { appId: 'wx0123456789abcdef', appSecret: 'secret', token: TOKEN };
    const seen: WechatEvent[] = [];
    let stallFirst = true;
    const verifier = createWechatAdapter({ ...APP, apiBase: 'http://unused.invalid' });
    const app = Fastify();
    await app.register(wechatCallbackRoutes, {
      provider: verifier,
      path: CALLBACK_PATH,
      onEvent: async (event) => {
        seen.push(event);
        if (stallFirst) {
          stallFirst = false;
          await new Promise((r) => setTimeout(r, 800));
        }
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const platform = new WechatSandboxPlatform({
      ...APP,
      publicBaseUrl: base,
      callbackUrl: `${base}${CALLBACK_PATH}`,
      delivery: { timeoutMs: 300, retryDelayMs: 0 },
    });
    const platformApp = Fastify();
    await platformApp.register(platform.plugin);
    try {
      const wx = createWechatAdapter({ ...APP, fetch: injectFetch(platformApp) });
      const qr = await wx.createQr({ sceneStr: 'login:http', expireSeconds: 600 });
      const result = await platform.scan({ ticket: qr.ticket, openId: 'oHttp' });
      expect(result).toMatchObject({ event: 'subscribe', attempts: 2, status: 200, body: 'success' });
      expect(seen).toHaveLength(2);
      expect(seen[1]!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    } finally {
      await platformApp.close();
      await app.close();
    }
  });
});

describe('WeChat configuration', () => {
  it('defaults to the sandbox with a 600 s QR lifetime and lists what the real provider needs', () => {
    const cfg = wechatConfigSchema.parse({ WECHAT_APP_ID: '' });
    expect(cfg).toMatchObject({ WECHAT_PROVIDER: 'sandbox', WECHAT_QR_EXPIRE_SECONDS: 600 });
    expect(cfg.WECHAT_APP_ID).toBeUndefined();
    expect(wechatConfigSchema.parse({ WECHAT_QR_EXPIRE_SECONDS: '300' }).WECHAT_QR_EXPIRE_SECONDS).toBe(300);
    const real = wechatConfigSchema.parse({ WECHAT_PROVIDER: 'real', WECHAT_APP_ID: 'wx1' });
    expect(listWechatConfigProblems(real)).toEqual([
      'WECHAT_APP_SECRET is required when WECHAT_PROVIDER=real',
      'WECHAT_TOKEN is required when WECHAT_PROVIDER=real',
    ]);
    expect(() => createWechatProvider(real)).toThrow(/WECHAT_APP_SECRET/);
    expect(wechatConfigSchema.safeParse({ WECHAT_TOKEN: 'has space' }).success).toBe(false);
    expect(wechatConfigSchema.safeParse({ WECHAT_QR_EXPIRE_SECONDS: '10' }).success).toBe(false);
  });

  it('builds the real adapter without a sandbox, and the sandbox needs a callback URL', () => {
    const real = createWechatProvider(
      wechatConfigSchema.parse({
        WECHAT_PROVIDER: 'real',
        WECHAT_APP_ID: 'wx1',
        WECHAT_APP_SECRET: 's',
        WECHAT_TOKEN: 'tok',
      }),
    );
    expect(real.provider.kind).toBe('real');
    expect(real.sandbox).toBeNull();
    expect(() => createWechatProvider(wechatConfigSchema.parse({}))).toThrow(/callbackUrl/);
  });
});
