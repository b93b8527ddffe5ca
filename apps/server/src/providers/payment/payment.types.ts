/**
 * The payment-provider interface the orders module charges through: one implementation per
 * platform (WeChat Pay API v3 Native, Alipay face-to-face), each pointed either at the real platform
 * or at the loopback sandbox that speaks the same protocol. Amounts are integer fen everywhere.
 */

/** `'wx'` WeChat Pay, `'ali'` Alipay — the spec's payType values. */
export type PayChannel = 'wx' | 'ali';

export const PAY_CHANNELS: readonly PayChannel[] = ['wx', 'ali'];

/**
 * The platform's view of one order, normalised over both platforms.
 * - NOTPAY: not paid (yet). Alipay's "trade does not exist" (QR not scanned) and WAIT_BUYER_PAY land here.
 * - USERPAYING: the payer is entering a password (WeChat only; treat like NOTPAY, query again later).
 * - SUCCESS: paid. Alipay TRADE_SUCCESS and TRADE_FINISHED.
 * - CLOSED: closed unpaid (by us or by expiry). WeChat REVOKED lands here.
 * - REFUND: it WAS paid and (part of) it has been refunded since. Never treat this as unpaid.
 * - PAYERROR: the payment failed at the bank.
 */
export type TradeState = 'NOTPAY' | 'USERPAYING' | 'SUCCESS' | 'CLOSED' | 'REFUND' | 'PAYERROR';

export interface CreateQrInput {
  /** Our order number (WeChat out_trade_no / Alipay out_trade_no): 6–32 of `[0-9A-Za-z_-|*]`. */
  orderNo: string;
  /** Positive integer amount in fen (1 = ¥0.01). */
  amountFen: number;
  /** What the payer sees on the phone (WeChat description ≤ 127 characters, Alipay subject). */
  description: string;
  /** After this instant the platform refuses payment (WeChat time_expire, Alipay time_expire). */
  expireAt: Date;
  /** Absolute https (or loopback http) URL the platform posts the payment notification to. */
  notifyUrl: string;
}

export interface CreateQrResult {
  /** What the QR code encodes (WeChat code_url, Alipay qr_code); draw it, never alter it. */
  codeUrl: string;
}

export interface QueryResult {
  orderNo: string;
  state: TradeState;
  /** The platform's transaction id (WeChat transaction_id / Alipay trade_no) once a trade exists. */
  transactionId?: string;
  /** The order total the platform holds, in fen. Compare it with our order before trusting SUCCESS. */
  amountFen?: number;
  /** When the payment succeeded (present for SUCCESS, and for REFUND when the platform says). */
  paidAt?: Date;
}

/**
 * What `close` achieved.
 * - CLOSED: the platform closed the order; it can no longer be paid.
 * - NOT_CREATED: the platform has no trade yet (Alipay before the QR code was scanned). Alipay keeps
 *   such a QR code payable until `expireAt`, so a payment notification may still arrive; query
 *   again after `expireAt` before treating the order as unpaid.
 * A paid order is never closed: `close` throws PaymentProviderError kind ORDER_PAID instead.
 */
export interface CloseResult {
  state: 'CLOSED' | 'NOT_CREATED';
}

export interface RefundInput {
  orderNo: string;
  /** Our refund number (WeChat out_refund_no / Alipay out_request_no); same number = same refund. */
  refundNo: string;
  /** Amount to refund now, in fen (≤ what is left of the order). */
  amountFen: number;
  /** The original order total, in fen (WeChat requires it and checks it). */
  totalFen: number;
  /** Shown to the payer (≤ 80 characters). */
  reason: string;
}

/**
 * SUCCESS: money is on its way back. PROCESSING: accepted, not finished (query the order later).
 * CLOSED / ABNORMAL: WeChat says the refund failed or needs manual handling.
 */
export type RefundState = 'SUCCESS' | 'PROCESSING' | 'CLOSED' | 'ABNORMAL';

export interface RefundResult {
  /** The platform's refund id (WeChat refund_id; Alipay has none, so its trade_no + our refundNo). */
  refundId: string;
  refundNo: string;
  state: RefundState;
  /** The amount of this refund, in fen, as the platform reports it. */
  amountFen: number;
}

/** A notification as it arrived: headers as Node/Fastify give them, the body exactly as received. */
export interface IncomingNotification {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string | Buffer;
}

/**
 * A verified, decrypted payment notification. Verification proves it came from the platform for
 * our merchant; it does NOT compare the amount with our order — the caller must check `amountFen`
 * against the order and act only on `state === 'SUCCESS'`, idempotently (platforms redeliver).
 */
export interface PaymentNotification {
  channel: PayChannel;
  orderNo: string;
  transactionId: string;
  /** The order total in fen as the platform states it. */
  amountFen: number;
  state: TradeState;
  /** Present whenever `state === 'SUCCESS'`. */
  paidAt?: Date;
  /** The platform's id for this notification (WeChat event id, Alipay notify_id), for logs. */
  notificationId: string;
  /** The decrypted resource (WeChat) or the form fields (Alipay), for audit storage. */
  raw: Record<string, unknown>;
}

/** The HTTP answer a platform expects to a notification; send it exactly. */
export interface NotificationAck {
  statusCode: number;
  contentType: string;
  body: string;
}

export type AckOutcome = { ok: true } | { ok: false; message: string; statusCode?: number };

export interface PaymentProvider {
  readonly channel: PayChannel;
  /**
   * Creates (or, with the same parameters, re-opens) the platform order and returns what the QR
   * code encodes. Safe to retry with the same input after a network failure.
   * @throws PaymentProviderError ORDER_PAID / ORDER_CLOSED / DUPLICATE_ORDER / INVALID_ARGUMENT / REJECTED / UNAVAILABLE / BAD_RESPONSE
   */
  createQr(input: CreateQrInput): Promise<CreateQrResult>;
  /**
   * Asks the platform for the order's state. Use it for reconciliation: a lost notification is
   * recovered here. The answer is signature-verified.
   * @throws PaymentProviderError ORDER_NOT_FOUND (WeChat: never created) / UNAVAILABLE / BAD_RESPONSE / REJECTED
   */
  query(orderNo: string): Promise<QueryResult>;
  /**
   * Closes an unpaid order so it can no longer be paid.
   * @throws PaymentProviderError ORDER_PAID (it was paid meanwhile: query it and mark it paid) / UNAVAILABLE / ...
   */
  close(orderNo: string): Promise<CloseResult>;
  /**
   * Refunds (part of) a paid order. Same refundNo again returns the same refund (idempotent).
   * @throws PaymentProviderError REFUND_REJECTED (not paid, exceeds the order, ...) / UNAVAILABLE / ...
   */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * Verifies (and for WeChat decrypts) one notification.
   * @throws PaymentNotificationError with `reason` BAD_SIGNATURE / UNKNOWN_SERIAL / STALE_TIMESTAMP /
   *   WRONG_MERCHANT / UNDECRYPTABLE / MALFORMED — answer it with `acknowledge({ ok: false, ... })`.
   */
  verifyNotification(input: IncomingNotification): PaymentNotification;
  /**
   * The answer the platform expects: WeChat 200 `{"code":"SUCCESS"}` or 4xx/5xx
   * `{"code":"FAIL","message":…}`; Alipay `success` / `fail`. Anything but success makes the
   * platform redeliver later.
   */
  acknowledge(outcome: AckOutcome): NotificationAck;
}

export type PaymentProviderErrorKind =
  /** The order is already paid (create again, or close). Query it and mark it paid. */
  | 'ORDER_PAID'
  /** The order was closed at the platform; it cannot be paid any more. */
  | 'ORDER_CLOSED'
  /** The platform has never seen this order number. */
  | 'ORDER_NOT_FOUND'
  /** The order number was used before with different parameters (amount, description, expiry). */
  | 'DUPLICATE_ORDER'
  /** The refund was refused (order not paid, amount exceeds what is left, total mismatch). */
  | 'REFUND_REJECTED'
  /** Our input breaks a platform rule; nothing was sent. */
  | 'INVALID_ARGUMENT'
  /** The platform refused the request for another reason (credentials, signature, permissions). */
  | 'REJECTED'
  /** Network failure, timeout, platform system error or rate limit: retry later (same input). */
  | 'UNAVAILABLE'
  /** The answer failed signature verification or could not be understood: do not trust it. */
  | 'BAD_RESPONSE';

/**
 * Thrown by the provider calls. `message` is safe to log: it never holds key material or
 * request signatures; `providerCode` is the platform's own code (WeChat `code`, Alipay `sub_code`).
 */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  readonly channel: PayChannel;
  readonly kind: PaymentProviderErrorKind;
  readonly providerCode: string | undefined;
  readonly httpStatus: number | undefined;

  constructor(
    channel: PayChannel,
    kind: PaymentProviderErrorKind,
    message: string,
    details: { providerCode?: string; httpStatus?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.channel = channel;
    this.kind = kind;
    this.providerCode = details.providerCode;
    this.httpStatus = details.httpStatus;
  }

  /** Whether trying again later with the same input may succeed. */
  get isRetryable(): boolean {
    return this.kind === 'UNAVAILABLE';
  }
}

export type PaymentNotificationErrorReason =
  /** Missing or invalid signature (or signature headers), or an unsupported sign type. */
  | 'BAD_SIGNATURE'
  /** WeChat: Wechatpay-Serial names a key we do not have. */
  | 'UNKNOWN_SERIAL'
  /** WeChat: Wechatpay-Timestamp is more than 5 minutes away from our clock. */
  | 'STALE_TIMESTAMP'
  /** Authentic, but for another appid / mchid / app_id / seller_id. */
  | 'WRONG_MERCHANT'
  /** WeChat: the resource does not decrypt with our APIv3 key. */
  | 'UNDECRYPTABLE'
  /** Signed, but not the shape we expect (missing fields, bad amount, unknown state). */
  | 'MALFORMED';

/** Thrown by `verifyNotification`; never carries key material or the notification body. */
export class PaymentNotificationError extends Error {
  override readonly name = 'PaymentNotificationError';
  readonly channel: PayChannel;
  readonly reason: PaymentNotificationErrorReason;

  constructor(channel: PayChannel, reason: PaymentNotificationErrorReason, message: string) {
    super(message);
    this.channel = channel;
    this.reason = reason;
  }
}

/** WeChat out_trade_no rules (the stricter of the two platforms): 6–32 of digits, letters, _-|*. */
export const ORDER_NO_PATTERN = /^[0-9A-Za-z_\-|*]{6,32}$/;
