import { AccessTokenCache } from './access-token.ts';
import {
  type CreateQrInput,
  WechatApiError,
  type WechatCallbackRequest,
  type WechatEvent,
  type WechatProvider,
  type WechatQr,
  type WechatUserInfo,
} from './wechat.types.ts';
import { parseWechatEvent } from './wechat-event.ts';
import { queryString, verifyWechatQuery, WECHAT_MAX_EVENT_AGE_SECONDS } from './wechat-signature.ts';

export const WECHAT_DEFAULT_API_BASE = 'https://api.weixin.qq.com';
export const WECHAT_DEFAULT_QR_IMAGE_BASE = 'https://mp.weixin.qq.com/cgi-bin/showqrcode';

/** errcodes meaning "this access_token is no good": invalid/not latest, expired, invalid. */
const TOKEN_ERRCODES = new Set([40001, 42001, 40014]);

export interface WechatAdapterOptions {
  appId: string;
  appSecret: string;
  /** The Token set on the server configuration page; signs every push to our callback. */
  token: string;
  /** Default https://api.weixin.qq.com. */
  apiBase?: string;
  /** Default https://mp.weixin.qq.com/cgi-bin/showqrcode (the ticket is appended as ?ticket=). */
  qrImageBase?: string;
  kind?: 'real' | 'sandbox';
  /** Refuse pushes whose timestamp is further than this from now; default 300 s. */
  maxEventAgeSeconds?: number;
  /** Refresh the access_token this long before it expires; default 300 s. */
  tokenMarginSeconds?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

interface ApiAnswer {
  errcode?: number;
  errmsg?: string;
  [key: string]: unknown;
}

/**
 * The Official Account HTTP API (cgi-bin) plus verification of its pushes. Used against
 * api.weixin.qq.com in production and against the sandbox platform otherwise.
 */
export function createWechatAdapter(options: WechatAdapterOptions): WechatProvider & {
  /** For tests and diagnostics: drops the cached access_token. */
  resetAccessToken(): void;
} {
  const apiBase = (options.apiBase ?? WECHAT_DEFAULT_API_BASE).replace(/\/+$/, '');
  const qrImageBase = options.qrImageBase ?? WECHAT_DEFAULT_QR_IMAGE_BASE;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAge = options.maxEventAgeSeconds ?? WECHAT_MAX_EVENT_AGE_SECONDS;

  /** Calls one cgi-bin endpoint; URLs carry credentials, so they never appear in errors. */
  async function call(path: string, query: Record<string, string>, body?: unknown): Promise<ApiAnswer> {
    const url = `${apiBase}${path}?${new URLSearchParams(query).toString()}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new WechatApiError(`WeChat ${path} unreachable: ${(err as Error).name}`, undefined, {
        cause: err,
      });
    }
    const text = await res.text();
    if (!res.ok) throw new WechatApiError(`WeChat ${path} answered HTTP ${res.status}`);
    try {
      return JSON.parse(text) as ApiAnswer;
    } catch {
      throw new WechatApiError(`WeChat ${path} answered a non-JSON body`);
    }
  }

  const tokens = new AccessTokenCache(
    async () => {
      const answer = await call('/cgi-bin/token', {
        grant_type: 'client_credential',
        appid: options.appId,
        secret: options.appSecret,
      });
      if (typeof answer.access_token !== 'string' || typeof answer.expires_in !== 'number') {
        throw new WechatApiError(
          `WeChat token refused: ${answer.errcode} ${answer.errmsg ?? ''}`,
          answer.errcode,
        );
      }
      return { accessToken: answer.access_token, expiresInSeconds: answer.expires_in };
    },
    { now, marginSeconds: options.tokenMarginSeconds ?? 300 },
  );

  /** Calls with the cached token; on a token errcode drops it and retries once with a fresh one. */
  async function callWithToken(
    path: string,
    query: Record<string, string>,
    body?: unknown,
  ): Promise<ApiAnswer> {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      const answer = await call(path, { ...query, access_token: token }, body);
      if (answer.errcode !== undefined && TOKEN_ERRCODES.has(answer.errcode)) {
        tokens.invalidate(token);
        if (attempt === 0) continue;
      }
      if (answer.errcode !== undefined && answer.errcode !== 0) {
        throw new WechatApiError(
          `WeChat ${path} refused: ${answer.errcode} ${answer.errmsg ?? ''}`,
          answer.errcode,
        );
      }
      return answer;
    }
  }

  return {
    kind: options.kind ?? 'real',

    async createQr(input: CreateQrInput): Promise<WechatQr> {
      if (input.sceneStr.length < 1 || input.sceneStr.length > 64) {
        throw new RangeError('sceneStr must be 1-64 characters');
      }
      if (
        !Number.isInteger(input.expireSeconds) ||
        input.expireSeconds < 60 ||
        input.expireSeconds > 2_592_000
      ) {
        throw new RangeError('expireSeconds must be an integer from 60 to 2592000');
      }
      const startedAt = now();
      const answer = await callWithToken(
        '/cgi-bin/qrcode/create',
        {},
        {
          expire_seconds: input.expireSeconds,
          action_name: 'QR_STR_SCENE',
          action_info: { scene: { scene_str: input.sceneStr } },
        },
      );
      const { ticket, url } = answer;
      const expireSeconds =
        typeof answer.expire_seconds === 'number' ? answer.expire_seconds : input.expireSeconds;
      if (typeof ticket !== 'string' || typeof url !== 'string') {
        throw new WechatApiError('WeChat qrcode/create answered without ticket or url');
      }
      return {
        ticket,
        url,
        // Counted from before the request: we never believe a QR lives longer than it does.
        expireAt: new Date(startedAt + expireSeconds * 1000),
        imageUrl: `${qrImageBase}?ticket=${encodeURIComponent(ticket)}`,
      };
    },

    parseEvent(request: WechatCallbackRequest): WechatEvent {
      return parseWechatEvent(options.token, request, now(), maxAge);
    },

    verifyServer(query: Record<string, unknown>): string {
      verifyWechatQuery(options.token, query, now(), maxAge);
      return queryString(query, 'echostr');
    },

    async getUserInfo(openId: string): Promise<WechatUserInfo> {
      const answer = await callWithToken('/cgi-bin/user/info', { openid: openId, lang: 'zh_CN' });
      const info: WechatUserInfo = { openId, subscribed: answer.subscribe === 1 };
      if (typeof answer.unionid === 'string') info.unionId = answer.unionid;
      return info;
    },

    resetAccessToken() {
      tokens.clear();
    },
  };
}
