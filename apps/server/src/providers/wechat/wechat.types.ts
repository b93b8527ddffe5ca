/**
 * The WeChat Official Account provider the accounts module logs in and binds with: a temporary
 * parametric QR code (QR_STR_SCENE) per login/bind session, and the signed XML event the platform
 * pushes to our callback when someone scans it.
 */

export interface CreateQrInput {
  /** Our scene, 1-64 characters (e.g. an opaque login-session id); comes back in the scan event. */
  sceneStr: string;
  /** Lifetime, 60 s to 30 days. */
  expireSeconds: number;
}

export interface WechatQr {
  ticket: string;
  /** What the QR code encodes (http://weixin.qq.com/q/… on the real platform). */
  url: string;
  expireAt: Date;
  /** Where a browser loads the QR image: the platform's showqrcode endpoint for this ticket. */
  imageUrl: string;
}

export type WechatEventType = 'subscribe' | 'SCAN' | 'unsubscribe' | 'other';

export interface WechatEvent {
  type: WechatEventType;
  /** FromUserName: the scanning user's openid for this Official Account. */
  openId: string;
  /** ToUserName: the Official Account's original id (gh_…). */
  toUserName: string;
  /** Our scene: EventKey without the `qrscene_` prefix (subscribe) or as is (SCAN). */
  sceneStr?: string;
  ticket?: string;
  /** CreateTime, unix seconds. */
  createTime: number;
  /** MsgId of a user message; events have none. */
  msgId?: string;
  /** The raw Event (or MsgType for non-event messages), e.g. 'subscribe', 'SCAN', 'CLICK', 'text'. */
  rawEvent: string;
  /**
   * Stable across the platform's retries and replays of the same push: `msg:<MsgId>` for messages,
   * `evt:<openId>:<CreateTime>:<Event>:<EventKey>` for events (WeChat's advice, FromUserName +
   * CreateTime, plus the event and its key so that two different QR codes scanned by one user in the
   * same second stay distinct). Record it and ignore a second event with the same key.
   */
  idempotencyKey: string;
}

/** The callback request as received: the query string (signature, timestamp, nonce, openid) and the exact body. */
export interface WechatCallbackRequest {
  query: Record<string, unknown>;
  rawBody: string | Buffer;
}

export interface WechatUserInfo {
  openId: string;
  unionId?: string;
  subscribed: boolean;
}

export interface WechatProvider {
  /** 'real' talks to api.weixin.qq.com; 'sandbox' to the in-process sandbox platform (same protocol). */
  readonly kind: 'real' | 'sandbox';
  /**
   * qrcode/create with QR_STR_SCENE, using the cached access_token (refreshed on 40001/42001/40014).
   * @throws WechatApiError the platform refused (errcode) or could not be reached
   */
  createQr(input: CreateQrInput): Promise<WechatQr>;
  /**
   * Verifies signature = sha1(sort(token, timestamp, nonce)), refuses timestamps more than 5 minutes
   * off, and parses the plaintext XML.
   * @throws WechatSignatureError | WechatStaleEventError | WechatEventFormatError
   */
  parseEvent(request: WechatCallbackRequest): WechatEvent;
  /**
   * The GET handshake of the server configuration page: returns `echostr` to send back as plain text.
   * @throws WechatSignatureError | WechatStaleEventError
   */
  verifyServer(query: Record<string, unknown>): string;
  /** cgi-bin/user/info: whether the user follows, and the unionid when the account has one. */
  getUserInfo?(openId: string): Promise<WechatUserInfo>;
}

type WechatErrorName =
  | 'WechatError'
  | 'WechatSignatureError'
  | 'WechatStaleEventError'
  | 'WechatEventFormatError'
  | 'WechatApiError'
  | 'WechatQrExpiredError'
  | 'WechatQrNotFoundError'
  | 'WechatDeliveryError';

export class WechatError extends Error {
  override name: WechatErrorName = 'WechatError';
}

/** The callback's signature does not match our token (forged, tampered or misconfigured). */
export class WechatSignatureError extends WechatError {
  override name = 'WechatSignatureError' as const;
}

/** The callback's timestamp is too far from our clock: a replay of an old push, or a broken clock. */
export class WechatStaleEventError extends WechatError {
  override name = 'WechatStaleEventError' as const;
}

/** The callback body is not the plaintext XML we understand (encrypted mode, DTD, too large, broken). */
export class WechatEventFormatError extends WechatError {
  override name = 'WechatEventFormatError' as const;
}

/** The platform API answered an errcode, a non-2xx status, or could not be reached. */
export class WechatApiError extends WechatError {
  override name = 'WechatApiError' as const;
  readonly errcode: number | undefined;
  constructor(message: string, errcode?: number, options?: ErrorOptions) {
    super(message, options);
    this.errcode = errcode;
  }
}

/** Sandbox: the scanned ticket has expired; the phone would say the QR code is invalid. */
export class WechatQrExpiredError extends WechatError {
  override name = 'WechatQrExpiredError' as const;
}

/** Sandbox: no such ticket was ever issued. */
export class WechatQrNotFoundError extends WechatError {
  override name = 'WechatQrNotFoundError' as const;
}

/** Sandbox: our callback did not answer 2xx on any attempt. */
export class WechatDeliveryError extends WechatError {
  override name = 'WechatDeliveryError' as const;
  readonly attempts: number;
  constructor(message: string, attempts: number, options?: ErrorOptions) {
    super(message, options);
    this.attempts = attempts;
  }
}
