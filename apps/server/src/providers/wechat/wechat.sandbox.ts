import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { type DeliveryTransport, httpTransport } from './wechat.transport.ts';
import { WechatDeliveryError, WechatQrExpiredError, WechatQrNotFoundError } from './wechat.types.ts';
import { computeWechatSignature } from './wechat-signature.ts';
import { buildWechatXml } from './wechat-xml.ts';

/** File name of the sandbox platform's state inside the state dir. */
export const WECHAT_SANDBOX_STATE_FILE = 'wechat-sandbox.json';
export const WECHAT_SANDBOX_MOUNT_PATH = '/__sandbox/wechat';

export interface WechatSandboxOptions {
  appId: string;
  appSecret: string;
  /** The Token our server verifies pushes with; the sandbox signs with it like the platform. */
  token: string;
  /** The Official Account's original id, sent as ToUserName. */
  originalId?: string;
  /** Absolute origin the browser (and a phone on the LAN) reaches us at, e.g. http://localhost:3000. */
  publicBaseUrl: string;
  /** Where the platform routes are mounted on our app; default /__sandbox/wechat. */
  mountPath?: string;
  /** Our callback URL the platform pushes events to. */
  callbackUrl: string;
  /** The dev control the scan page posts to; default /__dev/wechat/scan. */
  devScanPath?: string;
  /** Tickets, followers and access tokens persist here (JSON) when given. */
  stateDir?: string | null;
  /** access_token lifetime; default 7200 s like the platform. */
  tokenTtlSeconds?: number;
  /** The platform retries a push our endpoint fails (non-2xx, error, no answer within 5 s), 3 tries in all. */
  delivery?: { attempts?: number; timeoutMs?: number; retryDelayMs?: number };
  transport?: DeliveryTransport;
  now?: () => number;
}

export interface ScanInput {
  ticket: string;
  openId: string;
}

export interface DeliveryResult {
  /** Event pushed: subscribe for a user who did not follow yet, SCAN otherwise (unsubscribe for unfollow). */
  event: 'subscribe' | 'SCAN' | 'unsubscribe';
  /** Attempts made, 1 when our endpoint answered 2xx at once. */
  attempts: number;
  status: number;
  /** What our endpoint answered ('success' or '' per the platform's rules). */
  body: string;
}

interface TicketRecord {
  sceneStr: string;
  createdAt: number;
  expireAt: number;
}

interface UserRecord {
  subscribed: boolean;
  subscribeTime: number;
  sceneStr?: string;
}

interface SandboxState {
  tickets: Record<string, TicketRecord>;
  users: Record<string, UserRecord>;
  accessTokens: Record<string, number>;
}

/** After a new token is issued, the previous ones keep working this long (the platform's rule). */
const TOKEN_OVERLAP_MS = 5 * 60 * 1000;
/** Expired tickets are forgotten a day after expiry (so a late scan still says "expired", not "unknown"). */
const TICKET_RETENTION_MS = 24 * 3600 * 1000;
const TICKET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
const OPENID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A loopback WeChat Official Account platform: serves cgi-bin/token, cgi-bin/qrcode/create,
 * cgi-bin/user/info and the showqrcode image, and plays the phone: `scan()` builds the event XML the
 * platform would push (subscribe for a first-time follower, SCAN for a follower), signs it with the
 * Token and POSTs it to our callback, retrying like the platform. Expired tickets cannot be scanned.
 */
export class WechatSandboxPlatform {
  readonly appId: string;
  readonly mountPath: string;
  readonly callbackUrl: string;
  /** Counters for tests: how often the adapter fetched a token or created a QR code. */
  readonly stats = { tokenRequests: 0, qrCreates: 0, deliveries: 0 };
  private readonly options: WechatSandboxOptions;
  private readonly state: SandboxState;
  private readonly file: string | null;
  private readonly now: () => number;

  constructor(options: WechatSandboxOptions) {
    this.options = options;
    this.appId = options.appId;
    this.mountPath = (options.mountPath ?? WECHAT_SANDBOX_MOUNT_PATH).replace(/\/+$/, '');
    this.callbackUrl = options.callbackUrl;
    this.now = options.now ?? Date.now;
    this.file = options.stateDir ? join(options.stateDir, WECHAT_SANDBOX_STATE_FILE) : null;
    this.state = { tickets: {}, users: {}, accessTokens: {} };
    if (this.file) {
      mkdirSync(options.stateDir!, { recursive: true });
      this.load(this.file);
    }
  }

  /** PUBLIC_BASE_URL as given (the origin the QR pages and images are served at). */
  get publicBaseUrl(): string {
    return this.options.publicBaseUrl;
  }

  /** The URL a QR code encodes: the sandbox's scan page for the ticket. */
  scanPageUrl(ticket: string): string {
    return `${this.options.publicBaseUrl.replace(/\/+$/, '')}${this.mountPath}/scan-page?ticket=${encodeURIComponent(ticket)}`;
  }

  /** Where a browser loads the QR image (the showqrcode endpoint, without ?ticket=). */
  qrImageBase(): string {
    return `${this.options.publicBaseUrl.replace(/\/+$/, '')}${this.mountPath}/cgi-bin/showqrcode`;
  }

  /** Makes every issued access_token invalid at once (as if another server had refreshed twice): next use answers 40001. */
  revokeAccessTokens(): void {
    this.state.accessTokens = {};
    this.save();
  }

  /** Whether openId follows the account (it followed through a scan and has not unfollowed). */
  isFollower(openId: string): boolean {
    return this.state.users[openId]?.subscribed === true;
  }

  /**
   * The person scans the QR code of `ticket` with the WeChat account `openId`. Resolves once our
   * callback has answered 2xx.
   * @throws WechatQrNotFoundError | WechatQrExpiredError (nothing is pushed) | WechatDeliveryError
   */
  async scan(input: ScanInput, options: { transport?: DeliveryTransport } = {}): Promise<DeliveryResult> {
    if (!OPENID_PATTERN.test(input.openId)) throw new RangeError('openId must be 1-64 of [A-Za-z0-9_-]');
    const record = this.state.tickets[input.ticket];
    if (!record) throw new WechatQrNotFoundError('no such ticket');
    const nowMs = this.now();
    if (nowMs >= record.expireAt) throw new WechatQrExpiredError('ticket expired');

    const user = this.state.users[input.openId];
    const first = !user?.subscribed;
    const createTime = Math.floor(nowMs / 1000);
    if (first) {
      this.state.users[input.openId] = {
        subscribed: true,
        subscribeTime: createTime,
        sceneStr: record.sceneStr,
      };
      this.save();
    }
    const xml = buildWechatXml({
      ToUserName: this.originalId(),
      FromUserName: input.openId,
      CreateTime: createTime,
      MsgType: 'event',
      Event: first ? 'subscribe' : 'SCAN',
      EventKey: first ? `qrscene_${record.sceneStr}` : record.sceneStr,
      Ticket: input.ticket,
    });
    return this.deliver(first ? 'subscribe' : 'SCAN', input.openId, xml, options.transport);
  }

  /** The user unfollows the account: pushes an unsubscribe event. */
  async unfollow(openId: string, options: { transport?: DeliveryTransport } = {}): Promise<DeliveryResult> {
    const user = this.state.users[openId];
    if (user) user.subscribed = false;
    this.save();
    const xml = buildWechatXml({
      ToUserName: this.originalId(),
      FromUserName: openId,
      CreateTime: Math.floor(this.now() / 1000),
      MsgType: 'event',
      Event: 'unsubscribe',
      EventKey: '',
    });
    return this.deliver('unsubscribe', openId, xml, options.transport);
  }

  /** The platform's HTTP API and pages; mount at `mountPath` on our app (and anywhere in tests). */
  readonly plugin: FastifyPluginAsync = async (fastify) => {
    const json = (reply: FastifyReply, body: object) =>
      reply.header('content-type', 'application/json; encoding=utf-8').send(body);
    const q = (query: unknown, name: string): string => {
      const v = (query as Record<string, unknown> | undefined)?.[name];
      return typeof v === 'string' ? v : '';
    };

    fastify.get('/cgi-bin/token', async (request, reply) => {
      const query = request.query;
      if (q(query, 'grant_type') !== 'client_credential')
        return json(reply, { errcode: 40002, errmsg: 'invalid grant_type' });
      if (q(query, 'appid') !== this.options.appId)
        return json(reply, { errcode: 40013, errmsg: 'invalid appid' });
      if (q(query, 'secret') !== this.options.appSecret)
        return json(reply, { errcode: 40125, errmsg: 'invalid appsecret' });
      this.stats.tokenRequests += 1;
      const nowMs = this.now();
      const ttl = this.options.tokenTtlSeconds ?? 7200;
      for (const [t, exp] of Object.entries(this.state.accessTokens)) {
        if (exp <= nowMs) delete this.state.accessTokens[t];
        else this.state.accessTokens[t] = Math.min(exp, nowMs + TOKEN_OVERLAP_MS);
      }
      const accessToken = randomToken(64);
      this.state.accessTokens[accessToken] = nowMs + ttl * 1000;
      this.save();
      return json(reply, { access_token: accessToken, expires_in: ttl });
    });

    fastify.post('/cgi-bin/qrcode/create', async (request, reply) => {
      const tokenError = this.checkAccessToken(q(request.query, 'access_token'));
      if (tokenError) return json(reply, tokenError);
      const body = (request.body ?? {}) as {
        expire_seconds?: unknown;
        action_name?: unknown;
        action_info?: { scene?: { scene_str?: unknown; scene_id?: unknown } };
      };
      const scene = body.action_info?.scene;
      let sceneStr: string;
      if (body.action_name === 'QR_STR_SCENE' && typeof scene?.scene_str === 'string')
        sceneStr = scene.scene_str;
      else if (body.action_name === 'QR_SCENE' && Number.isInteger(scene?.scene_id))
        sceneStr = String(scene?.scene_id);
      else return json(reply, { errcode: 40097, errmsg: 'invalid args' });
      if (sceneStr.length < 1 || sceneStr.length > 64)
        return json(reply, { errcode: 40097, errmsg: 'invalid args' });
      const expire = body.expire_seconds === undefined ? 30 : Number(body.expire_seconds);
      if (!Number.isInteger(expire) || expire < 1 || expire > 2_592_000) {
        return json(reply, { errcode: 40097, errmsg: 'invalid args' });
      }
      this.stats.qrCreates += 1;
      const nowMs = this.now();
      const ticket = randomToken(36);
      this.state.tickets[ticket] = { sceneStr, createdAt: nowMs, expireAt: nowMs + expire * 1000 };
      this.prune(nowMs);
      this.save();
      return json(reply, { ticket, expire_seconds: expire, url: this.scanPageUrl(ticket) });
    });

    fastify.get('/cgi-bin/showqrcode', async (request, reply) => {
      const ticket = q(request.query, 'ticket');
      if (!TICKET_PATTERN.test(ticket) || !this.state.tickets[ticket])
        return reply.code(404).send('ticket not found');
      const png = await QRCode.toBuffer(this.scanPageUrl(ticket), {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 280,
      });
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=300')
        .send(png);
    });

    fastify.get('/cgi-bin/user/info', async (request, reply) => {
      const tokenError = this.checkAccessToken(q(request.query, 'access_token'));
      if (tokenError) return json(reply, tokenError);
      const openId = q(request.query, 'openid');
      const user = this.state.users[openId];
      if (!user) return json(reply, { errcode: 40003, errmsg: 'invalid openid' });
      if (!user.subscribed) return json(reply, { subscribe: 0, openid: openId });
      return json(reply, {
        subscribe: 1,
        openid: openId,
        language: 'zh_CN',
        subscribe_time: user.subscribeTime,
        subscribe_scene: 'ADD_SCENE_QR_CODE',
        qr_scene_str: user.sceneStr ?? '',
      });
    });

    fastify.get('/scan-page', async (request, reply) => {
      const ticket = q(request.query, 'ticket');
      const record = TICKET_PATTERN.test(ticket) ? this.state.tickets[ticket] : undefined;
      reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!record) return reply.code(404).send(this.page('<p>二维码不存在。</p>'));
      const left = Math.floor((record.expireAt - this.now()) / 1000);
      const status = left > 0 ? `有效，${left} 秒后过期` : '已过期，无法扫码';
      const devScanPath = this.options.devScanPath ?? '/__dev/wechat/scan';
      return reply.send(
        this.page(`
<p class="status">二维码状态：<b>${escapeHtml(status)}</b></p>
<label>微信用户 openId <input id="openId" autocomplete="off" spellcheck="false"></label>
<p class="hint">同一个 openId 代表同一个微信用户；首次扫码为“关注”（subscribe），之后为“扫码”（SCAN）。</p>
<button id="scan" type="button">模拟扫码</button>
<p id="result" role="status"></p>
<script>
const ticket = ${JSON.stringify(ticket).replace(/</g, '\\u003c')};
const input = document.getElementById('openId');
const key = 'kyfw-sandbox-openid';
let openId = localStorage.getItem(key);
if (!openId) {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  openId = 'o' + btoa(String.fromCharCode(...bytes)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '').slice(0, 27);
  localStorage.setItem(key, openId);
}
input.value = openId;
document.getElementById('scan').addEventListener('click', async () => {
  const result = document.getElementById('result');
  result.textContent = '正在推送扫码事件…';
  localStorage.setItem(key, input.value.trim());
  try {
    const res = await fetch(${JSON.stringify(devScanPath)}, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket, openId: input.value.trim() }),
    });
    const body = await res.json();
    result.textContent = body.code === 0 ? '扫码成功，请回到网页继续。' : body.message;
  } catch (err) {
    result.textContent = '请求失败：' + err;
  }
});
</script>`),
      );
    });
  };

  private page(body: string): string {
    return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>沙箱微信 · 模拟扫码</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
.badge{display:inline-block;background:#fa8c16;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.8rem}
input{display:block;width:100%;box-sizing:border-box;margin:.4rem 0;padding:.5rem;font-family:monospace}
button{background:#07c160;color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;font-size:1rem;cursor:pointer}
.hint,.note{color:#666;font-size:.85rem}</style></head>
<body><h1>沙箱微信 <span class="badge">沙箱</span></h1>
<p class="note">这是开发用的沙箱微信平台，不是真正的微信。按“模拟扫码”后，沙箱会像微信服务器一样把带签名的扫码事件推送到本站的回调地址。</p>
${body}</body></html>`;
  }

  private originalId(): string {
    return this.options.originalId ?? 'gh_sandbox00000';
  }

  private checkAccessToken(token: string): { errcode: number; errmsg: string } | null {
    if (!token) return { errcode: 41001, errmsg: 'access_token missing' };
    const exp = this.state.accessTokens[token];
    if (exp === undefined)
      return { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' };
    if (exp <= this.now()) return { errcode: 42001, errmsg: 'access_token expired' };
    return null;
  }

  private async deliver(
    event: DeliveryResult['event'],
    openId: string,
    xml: string,
    transport: DeliveryTransport | undefined,
  ): Promise<DeliveryResult> {
    const send = transport ?? this.options.transport ?? httpTransport;
    const attempts = this.options.delivery?.attempts ?? 3;
    const timeoutMs = this.options.delivery?.timeoutMs ?? 5000;
    const retryDelayMs = this.options.delivery?.retryDelayMs ?? 500;
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1 && retryDelayMs > 0) await new Promise((r) => setTimeout(r, retryDelayMs));
      // Each attempt is a new request, signed afresh; the body (and so CreateTime) stays the same.
      const timestamp = String(Math.floor(this.now() / 1000));
      const nonce = String(randomInt(100_000_000, 2_000_000_000));
      const signature = computeWechatSignature(this.options.token, timestamp, nonce);
      const url = new URL(this.callbackUrl, 'http://localhost');
      url.searchParams.set('signature', signature);
      url.searchParams.set('timestamp', timestamp);
      url.searchParams.set('nonce', nonce);
      url.searchParams.set('openid', openId);
      const target = /^https?:\/\//.test(this.callbackUrl) ? url.toString() : `${url.pathname}${url.search}`;
      try {
        this.stats.deliveries += 1;
        const res = await send({
          url: target,
          headers: { 'content-type': 'text/xml', 'user-agent': 'Mozilla/4.0 (kyfw wechat sandbox)' },
          body: xml,
          timeoutMs,
        });
        if (res.status >= 200 && res.status < 300)
          return { event, attempts: attempt, status: res.status, body: res.body };
        lastProblem = `HTTP ${res.status}`;
      } catch (err) {
        lastProblem =
          (err as Error).name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : (err as Error).message;
      }
    }
    throw new WechatDeliveryError(`callback failed ${attempts} times (last: ${lastProblem})`, attempts);
  }

  private prune(nowMs: number): void {
    for (const [t, r] of Object.entries(this.state.tickets)) {
      if (r.expireAt + TICKET_RETENTION_MS < nowMs) delete this.state.tickets[t];
    }
    for (const [t, exp] of Object.entries(this.state.accessTokens))
      if (exp <= nowMs) delete this.state.accessTokens[t];
  }

  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const saved = JSON.parse(text) as Partial<SandboxState>;
    Object.assign(this.state.tickets, saved.tickets ?? {});
    Object.assign(this.state.users, saved.users ?? {});
    Object.assign(this.state.accessTokens, saved.accessTokens ?? {});
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
