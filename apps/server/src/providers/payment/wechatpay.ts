import { formatRfc3339Shanghai, parseRfc3339 } from './china-time.ts';
import { type FetchFn, type HttpAnswer, isHttpUrl, joinUrl, type ProviderRuntime, sendHttp } from './http.ts';
import { isAmountFen } from './money.ts';
import {
  type AckOutcome,
  type CloseResult,
  type CreateQrInput,
  type CreateQrResult,
  type IncomingNotification,
  type NotificationAck,
  ORDER_NO_PATTERN,
  type PaymentNotification,
  PaymentNotificationError,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentProviderErrorKind,
  type QueryResult,
  type RefundInput,
  type RefundResult,
  type RefundState,
  type TradeState,
} from './payment.types.ts';
import {
  type KeyInput,
  loadPrivateKey,
  loadPublicKey,
  signSha256WithRsa,
  verifySha256WithRsa,
} from './rsa.ts';
import { revealSecret, type Secret } from './secret.ts';
import {
  apiV3KeyBytes,
  buildAuthorization,
  buildRequestSignMessage,
  buildResponseSignMessage,
  createNonce,
  decryptResource,
  type EncryptedResource,
  headerValue,
  isFreshTimestamp,
  unixSeconds,
} from './wechatpay.crypto.ts';

/**
 * WeChat Pay API v3, Native payment (the QR code a phone scans), in public-key mode: answers and
 * notifications are verified with the WeChat Pay public key named by Wechatpay-Serial
 * (`PUB_KEY_ID_…`), not with downloaded platform certificates.
 * https://pay.weixin.qq.com/doc/v3/merchant/4012791874 (Native)
 */

export const WECHATPAY_DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com';

export interface WechatPayConfig {
  /** 商户号. */
  mchid: string;
  /** The AppID bound to the merchant (公众号/小程序/移动应用). */
  appid: string;
  /** Serial number of our merchant API certificate (商户API证书序列号). */
  merchantSerialNo: string;
  /** Our merchant API private key (apiclient_key.pem). */
  merchantPrivateKey: KeyInput;
  /** WeChat Pay public keys by id (`PUB_KEY_ID_…`); answers signed under any other serial are refused. */
  platformPublicKeys: Record<string, KeyInput>;
  /** The 32-byte APIv3 key that encrypts notification resources. */
  apiV3Key: string | Secret;
  /** Default https://api.mch.weixin.qq.com; the sandbox URL in sandbox mode (may carry a path). */
  baseUrl?: string;
}

export interface WechatPayProvider extends PaymentProvider {
  readonly channel: 'wx';
}

const TRADE_STATES: Record<string, TradeState> = {
  NOTPAY: 'NOTPAY',
  USERPAYING: 'USERPAYING',
  SUCCESS: 'SUCCESS',
  CLOSED: 'CLOSED',
  REVOKED: 'CLOSED',
  REFUND: 'REFUND',
  PAYERROR: 'PAYERROR',
};

const REFUND_STATES: Record<string, RefundState> = {
  SUCCESS: 'SUCCESS',
  PROCESSING: 'PROCESSING',
  CLOSED: 'CLOSED',
  ABNORMAL: 'ABNORMAL',
};

/**
 * Builds the adapter. Keys are parsed here (a bad key fails at boot, not at the first payment)
 * and kept in this closure only: the returned object has no fields holding key material.
 * @throws Error naming the bad setting (never its value).
 */
export function createWechatPayProvider(
  config: WechatPayConfig,
  runtime: ProviderRuntime = {},
): WechatPayProvider {
  const { mchid, appid, merchantSerialNo } = config;
  if (!mchid || !appid || !merchantSerialNo)
    throw new Error('WeChat Pay: mchid, appid and merchant serial are required');
  const privateKey = loadPrivateKey(config.merchantPrivateKey);
  const publicKeys = new Map(
    Object.entries(config.platformPublicKeys).map(([id, key]) => [id, loadPublicKey(key)]),
  );
  if (publicKeys.size === 0) throw new Error('WeChat Pay: at least one WeChat Pay public key is required');
  const aesKey = apiV3KeyBytes(revealSecret(config.apiV3Key));
  const baseUrl = config.baseUrl ?? WECHATPAY_DEFAULT_BASE_URL;
  const fetchFn: FetchFn = runtime.fetch ?? ((input, init) => fetch(input, init));
  const now = runtime.now ?? Date.now;
  const timeoutMs = runtime.timeoutMs ?? 10_000;

  function fail(
    kind: PaymentProviderErrorKind,
    message: string,
    details?: { providerCode?: string; httpStatus?: number },
  ) {
    return new PaymentProviderError('wx', kind, message, details);
  }

  /** Checks the platform signature headers over `body`; returns what is wrong, or null. */
  function checkPlatformSignature(
    headers: Headers | Record<string, string | string[] | undefined>,
    body: string,
  ) {
    const get = (name: string) =>
      headers instanceof Headers ? (headers.get(name) ?? undefined) : headerValue(headers, name);
    const serial = get('wechatpay-serial');
    const timestamp = get('wechatpay-timestamp');
    const nonce = get('wechatpay-nonce');
    const signature = get('wechatpay-signature');
    if (!serial || !timestamp || !nonce || !signature) return 'BAD_SIGNATURE' as const;
    const key = publicKeys.get(serial);
    if (!key) return 'UNKNOWN_SERIAL' as const;
    if (!isFreshTimestamp(timestamp, now())) return 'STALE_TIMESTAMP' as const;
    if (!verifySha256WithRsa(buildResponseSignMessage(timestamp, nonce, body), signature, key)) {
      return 'BAD_SIGNATURE' as const;
    }
    return null;
  }

  async function call(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<HttpAnswer> {
    const url = new URL(joinUrl(baseUrl, path));
    const bodyText = body === undefined ? '' : JSON.stringify(body);
    const timestamp = unixSeconds(now());
    const nonce = createNonce();
    const message = buildRequestSignMessage(method, url.pathname + url.search, timestamp, nonce, bodyText);
    const authorization = buildAuthorization({
      mchid,
      nonce,
      timestamp,
      serialNo: merchantSerialNo,
      signature: signSha256WithRsa(message, privateKey),
    });
    const headers: Record<string, string> = {
      Authorization: authorization,
      Accept: 'application/json',
      'User-Agent': 'kyfw-server (wechatpay-apiv3)',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const answer = await sendHttp(
      'wx',
      operation,
      fetchFn,
      url.toString(),
      {
        method,
        headers,
        body: body === undefined ? undefined : bodyText,
      },
      timeoutMs,
    );

    // Like the official SDKs: a non-2xx answer is an error whatever its signature (it can only
    // make us fail or re-query); every 2xx answer, 204 included, must carry a valid signature.
    if (answer.status < 200 || answer.status >= 300) throw errorFromAnswer(operation, answer);
    const problem = checkPlatformSignature(answer.headers, answer.text);
    if (problem) {
      throw fail('BAD_RESPONSE', `${operation}: answer failed verification (${problem})`, {
        httpStatus: answer.status,
      });
    }
    return answer;
  }

  function errorFromAnswer(operation: string, answer: HttpAnswer): PaymentProviderError {
    let code: string | undefined;
    let message = '';
    try {
      const parsed = JSON.parse(answer.text) as { code?: unknown; message?: unknown };
      if (typeof parsed.code === 'string') code = parsed.code;
      if (typeof parsed.message === 'string') message = parsed.message.slice(0, 200);
    } catch {
      // not JSON: a proxy's error page
    }
    const kind = errorKind(operation, code, answer.status);
    return fail(kind, `${operation}: ${code ?? `HTTP ${answer.status}`}${message ? ` ${message}` : ''}`, {
      providerCode: code,
      httpStatus: answer.status,
    });
  }

  function parseJson(operation: string, answer: HttpAnswer): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(answer.text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw fail('BAD_RESPONSE', `${operation}: answer is not a JSON object`, { httpStatus: answer.status });
  }

  function orderPath(orderNo: string): string {
    return `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}`;
  }

  function checkOrderNo(orderNo: string): void {
    if (!ORDER_NO_PATTERN.test(orderNo))
      throw fail('INVALID_ARGUMENT', 'order number must be 6-32 of [0-9A-Za-z_-|*]');
  }

  return {
    channel: 'wx',

    async createQr(input: CreateQrInput): Promise<CreateQrResult> {
      checkOrderNo(input.orderNo);
      if (!isAmountFen(input.amountFen))
        throw fail('INVALID_ARGUMENT', 'amount must be a positive integer of fen');
      if (!input.description || [...input.description].length > 127) {
        throw fail('INVALID_ARGUMENT', 'description must be 1-127 characters');
      }
      if (Number.isNaN(input.expireAt.getTime())) throw fail('INVALID_ARGUMENT', 'expireAt is not a date');
      // WeChat refuses notify URLs with a query string.
      if (!isHttpUrl(input.notifyUrl) || input.notifyUrl.includes('?') || input.notifyUrl.length > 255) {
        throw fail(
          'INVALID_ARGUMENT',
          'notifyUrl must be an absolute http(s) URL without a query, ≤ 255 characters',
        );
      }
      const answer = await call('native order', 'POST', '/v3/pay/transactions/native', {
        appid,
        mchid,
        description: input.description,
        out_trade_no: input.orderNo,
        time_expire: formatRfc3339Shanghai(input.expireAt),
        notify_url: input.notifyUrl,
        amount: { total: input.amountFen, currency: 'CNY' },
      });
      const data = parseJson('native order', answer);
      if (typeof data.code_url !== 'string' || !data.code_url)
        throw fail('BAD_RESPONSE', 'native order: no code_url');
      return { codeUrl: data.code_url };
    },

    async query(orderNo: string): Promise<QueryResult> {
      checkOrderNo(orderNo);
      const answer = await call(
        'query order',
        'GET',
        `${orderPath(orderNo)}?mchid=${encodeURIComponent(mchid)}`,
      );
      const data = parseJson('query order', answer);
      if (data.mchid !== mchid || data.appid !== appid || data.out_trade_no !== orderNo) {
        throw fail('BAD_RESPONSE', 'query order: answer is for another merchant or order');
      }
      const state = TRADE_STATES[String(data.trade_state)];
      if (!state) throw fail('BAD_RESPONSE', 'query order: unknown trade_state');
      const amount = data.amount as { total?: unknown } | undefined;
      const result: QueryResult = { orderNo, state };
      if (typeof data.transaction_id === 'string' && data.transaction_id)
        result.transactionId = data.transaction_id;
      if (amount && isAmountFen(amount.total)) result.amountFen = amount.total;
      if (typeof data.success_time === 'string') {
        const paidAt = parseRfc3339(data.success_time);
        if (paidAt) result.paidAt = paidAt;
      }
      if (
        state === 'SUCCESS' &&
        (!result.transactionId || result.amountFen === undefined || !result.paidAt)
      ) {
        throw fail('BAD_RESPONSE', 'query order: SUCCESS without transaction_id, amount or success_time');
      }
      return result;
    },

    async close(orderNo: string): Promise<CloseResult> {
      checkOrderNo(orderNo);
      try {
        await call('close order', 'POST', `${orderPath(orderNo)}/close`, { mchid });
      } catch (error) {
        if (error instanceof PaymentProviderError && error.kind === 'ORDER_NOT_FOUND')
          return { state: 'NOT_CREATED' };
        if (error instanceof PaymentProviderError && error.kind === 'ORDER_CLOSED')
          return { state: 'CLOSED' };
        throw error;
      }
      return { state: 'CLOSED' };
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      checkOrderNo(input.orderNo);
      if (!/^[0-9A-Za-z_\-|*@]{1,64}$/.test(input.refundNo)) {
        throw fail('INVALID_ARGUMENT', 'refund number must be 1-64 of [0-9A-Za-z_-|*@]');
      }
      if (!isAmountFen(input.amountFen) || !isAmountFen(input.totalFen) || input.amountFen > input.totalFen) {
        throw fail('INVALID_ARGUMENT', 'refund amount must be positive fen not above the total');
      }
      const reason = [...input.reason].slice(0, 80).join('');
      const answer = await call('refund', 'POST', '/v3/refund/domestic/refunds', {
        out_trade_no: input.orderNo,
        out_refund_no: input.refundNo,
        ...(reason ? { reason } : {}),
        amount: { refund: input.amountFen, total: input.totalFen, currency: 'CNY' },
      });
      const data = parseJson('refund', answer);
      const state = REFUND_STATES[String(data.status)];
      const amount = data.amount as { refund?: unknown } | undefined;
      if (
        data.out_refund_no !== input.refundNo ||
        typeof data.refund_id !== 'string' ||
        !state ||
        !amount ||
        !isAmountFen(amount.refund)
      ) {
        throw fail('BAD_RESPONSE', 'refund: answer is for another refund or incomplete');
      }
      return { refundId: data.refund_id, refundNo: input.refundNo, state, amountFen: amount.refund };
    },

    verifyNotification(input: IncomingNotification): PaymentNotification {
      const body = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
      const problem = checkPlatformSignature(input.headers, body);
      if (problem) throw new PaymentNotificationError('wx', problem, `notification rejected: ${problem}`);
      const malformed = (what: string) =>
        new PaymentNotificationError('wx', 'MALFORMED', `notification: ${what}`);

      let envelope: { id?: unknown; resource_type?: unknown; resource?: EncryptedResource };
      try {
        envelope = JSON.parse(body);
      } catch {
        throw malformed('body is not JSON');
      }
      const resource = envelope?.resource;
      if (
        envelope?.resource_type !== 'encrypt-resource' ||
        !resource ||
        typeof resource.ciphertext !== 'string'
      ) {
        throw malformed('no encrypted resource');
      }
      let plaintext: string;
      try {
        plaintext = decryptResource(resource, aesKey);
      } catch {
        throw new PaymentNotificationError('wx', 'UNDECRYPTABLE', 'notification: resource does not decrypt');
      }
      let raw: Record<string, unknown>;
      try {
        raw = JSON.parse(plaintext);
      } catch {
        throw malformed('resource is not JSON');
      }
      if (!raw || typeof raw !== 'object') throw malformed('resource is not an object');
      // Refund notifications carry mchid only; transaction notifications carry both.
      const isRefund = resource.original_type === 'refund';
      if (raw.mchid !== mchid || (!isRefund && raw.appid !== appid)) {
        throw new PaymentNotificationError(
          'wx',
          'WRONG_MERCHANT',
          'notification: for another appid or mchid',
        );
      }
      const amount = raw.amount as { total?: unknown } | undefined;
      if (typeof raw.out_trade_no !== 'string' || typeof raw.transaction_id !== 'string' || !amount) {
        throw malformed('missing out_trade_no, transaction_id or amount');
      }
      if (!isAmountFen(amount.total)) throw malformed('bad amount');
      const state = isRefund ? 'REFUND' : TRADE_STATES[String(raw.trade_state)];
      if (!state) throw malformed('unknown trade_state');
      const result: PaymentNotification = {
        channel: 'wx',
        orderNo: raw.out_trade_no,
        transactionId: raw.transaction_id,
        amountFen: amount.total,
        state,
        notificationId: typeof envelope.id === 'string' ? envelope.id : '',
        raw,
      };
      if (typeof raw.success_time === 'string') {
        const paidAt = parseRfc3339(raw.success_time);
        if (paidAt && !isRefund) result.paidAt = paidAt;
      }
      if (state === 'SUCCESS' && !result.paidAt) throw malformed('SUCCESS without success_time');
      return result;
    },

    acknowledge(outcome: AckOutcome): NotificationAck {
      if (outcome.ok) {
        return {
          statusCode: 200,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'SUCCESS', message: '成功' }),
        };
      }
      return {
        statusCode: outcome.statusCode && outcome.statusCode >= 400 ? outcome.statusCode : 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FAIL', message: outcome.message }),
      };
    },
  };
}

/** Maps a WeChat error code (and HTTP status) to what the caller should do. */
function errorKind(operation: string, code: string | undefined, status: number): PaymentProviderErrorKind {
  switch (code) {
    case 'ORDERPAID':
    case 'TRADE_PAID':
      return 'ORDER_PAID';
    case 'ORDER_CLOSED':
    case 'ORDERCLOSED':
      return 'ORDER_CLOSED';
    case 'ORDER_NOT_EXIST':
    case 'ORDERNOTEXIST':
    case 'RESOURCE_NOT_EXISTS':
      return operation === 'refund' ? 'REFUND_REJECTED' : 'ORDER_NOT_FOUND';
    case 'OUT_TRADE_NO_USED':
      return 'DUPLICATE_ORDER';
    case 'SYSTEM_ERROR':
    case 'SYSTEMERROR':
    case 'FREQUENCY_LIMITED':
    case 'BANK_ERROR':
      return 'UNAVAILABLE';
  }
  if (status >= 500 || status === 429) return 'UNAVAILABLE';
  if (operation === 'refund' && status >= 400 && status < 500 && status !== 401) {
    return 'REFUND_REJECTED';
  }
  return 'REJECTED';
}
