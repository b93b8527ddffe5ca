import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createWechatAdapter,
  type DeliveryTransport,
  WechatApiError,
  WechatQrExpiredError,
  WechatQrNotFoundError,
  WechatSandboxPlatform,
} from '../../../src/providers/wechat/index.ts';

const APP = { appId: 'wx0123456789abcdef', appSecret: 'sandbox-secret-0123456789', token: 'kyfwtoken' };
let clock = Date.now();
const now = () => clock;

let app: FastifyInstance;
let base: string;
let platform: WechatSandboxPlatform;
const pushes: { url: string; body: string }[] = [];
const recordingTransport: DeliveryTransport = async ({ url, body }) => {
  pushes.push({ url, body });
  return { status: 200, body: 'success' };
};

function adapter(overrides: Partial<Parameters<typeof createWechatAdapter>[0]> = {}) {
  return createWechatAdapter({
    ...APP,
    apiBase: `${base}/__sandbox/wechat`,
    qrImageBase: `${base}/__sandbox/wechat/cgi-bin/showqrcode`,
    now,
    ...overrides,
  });
}

beforeAll(async () => {
  app = Fastify();
  // The callback URL is irrelevant here: pushes go to the recording transport.
  platform = new WechatSandboxPlatform({
    ...APP,
    publicBaseUrl: 'http://placeholder',
    callbackUrl: '/wechat/callback',
    transport: recordingTransport,
    now,
  });
  await app.register(platform.plugin, { prefix: '/__sandbox/wechat' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
});

describe('WeChat adapter against the sandbox platform over loopback', () => {
  it('creates a QR_STR_SCENE code: ticket, url, expiry and a real PNG of the scan page at imageUrl', async () => {
    const wx = adapter();
    const before = now();
    const qr = await wx.createQr({ sceneStr: 'login:abc', expireSeconds: 600 });
    expect(qr.ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(qr.url).toBe(platform.scanPageUrl(qr.ticket));
    expect(qr.expireAt.getTime()).toBe(before + 600_000);
    expect(qr.imageUrl).toBe(`${base}/__sandbox/wechat/cgi-bin/showqrcode?ticket=${qr.ticket}`);

    const res = await fetch(qr.imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    const expected = await QRCode.toBuffer(qr.url, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 280,
    });
    expect(png.equals(expected)).toBe(true);
    expect(
      (await fetch(`${base}/__sandbox/wechat/cgi-bin/showqrcode?ticket=nope-not-a-real-ticket`)).status,
    ).toBe(404);
  });

  it('caches the access_token across calls and fetches it once for concurrent callers', async () => {
    const wx = adapter();
    const start = platform.stats.tokenRequests;
    await Promise.all([1, 2, 3, 4, 5].map((i) => wx.createQr({ sceneStr: `s${i}`, expireSeconds: 60 })));
    await wx.createQr({ sceneStr: 's6', expireSeconds: 60 });
    expect(platform.stats.tokenRequests - start).toBe(1);
  });

  it('refreshes the token when the platform answers 40001 (invalid) and 42001 (expired)', async () => {
    const wx = adapter();
    await wx.createQr({ sceneStr: 'a', expireSeconds: 60 });
    const start = platform.stats.tokenRequests;

    platform.revokeAccessTokens(); // next use of the cached token answers 40001
    await wx.createQr({ sceneStr: 'b', expireSeconds: 60 });
    expect(platform.stats.tokenRequests - start).toBe(1);

    // Our clock stands still while the platform's passes the 7200 s lifetime: only 42001 tells us.
    const frozen = clock;
    const stuck = adapter({ now: () => frozen });
    await stuck.createQr({ sceneStr: 'c', expireSeconds: 60 });
    const afterFirst = platform.stats.tokenRequests;
    clock += 7201_000;
    try {
      await stuck.createQr({ sceneStr: 'd', expireSeconds: 60 });
      expect(platform.stats.tokenRequests - afterFirst).toBe(1);
    } finally {
      clock -= 7201_000;
    }
  });

  it('refetches before expiry minus the margin', async () => {
    const wx = adapter();
    await wx.createQr({ sceneStr: 'a', expireSeconds: 60 });
    const start = platform.stats.tokenRequests;
    clock += (7200 - 301) * 1000;
    try {
      await wx.createQr({ sceneStr: 'b', expireSeconds: 60 });
      expect(platform.stats.tokenRequests - start).toBe(0);
      clock += 2000;
      await wx.createQr({ sceneStr: 'c', expireSeconds: 60 });
      expect(platform.stats.tokenRequests - start).toBe(1);
    } finally {
      clock -= (7200 - 301 + 2) * 1000;
    }
  });

  it('reports a wrong app secret as WechatApiError 40125 without leaking the secret', async () => {
    const err = await adapter({ appSecret: 'wrong-secret-value' })
      .createQr({ sceneStr: 'x', expireSeconds: 60 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(WechatApiError);
    expect(err.errcode).toBe(40125);
    expect(err.message).not.toContain('wrong-secret-value');
    const down = await adapter({ apiBase: 'http://127.0.0.1:1', timeoutMs: 2000 })
      .createQr({ sceneStr: 'x', expireSeconds: 60 })
      .catch((e) => e);
    expect(down).toBeInstanceOf(WechatApiError);
    expect(down.message).not.toContain(APP.appSecret);
  });

  it('validates scene and lifetime before calling the platform', async () => {
    const wx = adapter();
    await expect(wx.createQr({ sceneStr: '', expireSeconds: 600 })).rejects.toThrow(RangeError);
    await expect(wx.createQr({ sceneStr: 'x'.repeat(65), expireSeconds: 600 })).rejects.toThrow(RangeError);
    await expect(wx.createQr({ sceneStr: 'x', expireSeconds: 10 })).rejects.toThrow(RangeError);
  });

  it('pushes subscribe for a first-time user and SCAN afterwards, signed with the token', async () => {
    const wx = adapter();
    const qr = await wx.createQr({ sceneStr: 'login:s1', expireSeconds: 300 });
    pushes.length = 0;
    const first = await platform.scan({ ticket: qr.ticket, openId: 'oFirstTimer' });
    const second = await platform.scan({ ticket: qr.ticket, openId: 'oFirstTimer' });
    expect([first.event, second.event]).toEqual(['subscribe', 'SCAN']);

    const events = pushes.map((p) => {
      const u = new URL(p.url, 'http://x');
      return wx.parseEvent({ query: Object.fromEntries(u.searchParams), rawBody: p.body });
    });
    expect(events[0]).toMatchObject({
      type: 'subscribe',
      openId: 'oFirstTimer',
      sceneStr: 'login:s1',
      ticket: qr.ticket,
    });
    expect(events[1]).toMatchObject({
      type: 'SCAN',
      openId: 'oFirstTimer',
      sceneStr: 'login:s1',
      ticket: qr.ticket,
    });
    expect(new URL(pushes[0]!.url, 'http://x').searchParams.get('openid')).toBe('oFirstTimer');
    expect(await wx.getUserInfo!('oFirstTimer')).toEqual({ openId: 'oFirstTimer', subscribed: true });
  });

  it('refuses to scan an expired ticket and an unknown one; nothing is pushed', async () => {
    const qr = await adapter().createQr({ sceneStr: 'login:old', expireSeconds: 60 });
    pushes.length = 0;
    clock += 61_000;
    try {
      await expect(platform.scan({ ticket: qr.ticket, openId: 'oLate' })).rejects.toBeInstanceOf(
        WechatQrExpiredError,
      );
    } finally {
      clock -= 61_000;
    }
    await expect(platform.scan({ ticket: 'A'.repeat(48), openId: 'oLate' })).rejects.toBeInstanceOf(
      WechatQrNotFoundError,
    );
    expect(pushes).toHaveLength(0);
  });
});

describe('sandbox platform state dir', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps tickets, followers and tokens across a restart', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'kyfw-wechat-'));
    dirs.push(stateDir);
    const make = () =>
      new WechatSandboxPlatform({
        ...APP,
        publicBaseUrl: 'http://localhost:3000',
        callbackUrl: '/cb',
        transport: recordingTransport,
        stateDir,
        now,
      });
    const first = make();
    const local = Fastify();
    await local.register(first.plugin);
    const tokenRes = await local.inject({
      url: `/cgi-bin/token?grant_type=client_credential&appid=${APP.appId}&secret=${APP.appSecret}`,
    });
    const { access_token } = tokenRes.json() as { access_token: string };
    const createRes = await local.inject({
      method: 'POST',
      url: `/cgi-bin/qrcode/create?access_token=${access_token}`,
      payload: {
        expire_seconds: 120,
        action_name: 'QR_STR_SCENE',
        action_info: { scene: { scene_str: 'persist' } },
      },
    });
    const { ticket: live } = createRes.json() as { ticket: string };
    const shortRes = await local.inject({
      method: 'POST',
      url: `/cgi-bin/qrcode/create?access_token=${access_token}`,
      payload: {
        expire_seconds: 1,
        action_name: 'QR_STR_SCENE',
        action_info: { scene: { scene_str: 'short' } },
      },
    });
    const { ticket: short } = shortRes.json() as { ticket: string };
    expect((await first.scan({ ticket: live, openId: 'oPersist' })).event).toBe('subscribe');
    await local.close();

    const second = make();
    const again = Fastify();
    await again.register(second.plugin);
    // The token issued before the restart still works, so does the ticket, and the user still follows.
    const info = await again.inject({
      url: `/cgi-bin/user/info?access_token=${access_token}&openid=oPersist`,
    });
    expect(info.json()).toMatchObject({ subscribe: 1, qr_scene_str: 'persist' });
    expect((await second.scan({ ticket: live, openId: 'oPersist' })).event).toBe('SCAN');
    clock += 2000;
    try {
      await expect(second.scan({ ticket: short, openId: 'oPersist' })).rejects.toBeInstanceOf(
        WechatQrExpiredError,
      );
    } finally {
      clock -= 2000;
    }
    await again.close();
  });
});
