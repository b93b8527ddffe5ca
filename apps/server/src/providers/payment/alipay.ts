import {
  buildSignContent,
  extractResponseNode,
  NOTIFY_SIGN_EXCLUDE,
  REQUEST_SIGN_EXCLUDE,
} from './alipay.crypto.ts';
import { formatShanghaiDateTime, parseShanghaiDateTime } from './china-time.ts';
import { type FetchFn, isHttpUrl, type ProviderRuntime, sendHttp } from './http.ts';
import { formatFenAsYuan, isAmountFen, parseYuanToFen } from './money.ts';
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
  type TradeState,
} from './payment.types.ts';
import {
  type KeyInput,
  loadPrivateKey,
  loadPublicKey,
  signSha256WithRsa,
  verifySha256WithRsa,
} from './rsa.ts';

/**
 * Alipay face-to-face payment (当面付, 扫码支付): alipay.trade.precreate returns the qr_code the
 * phone scans. Public-key mode (not certificate mode), RSA2.
 * https://opendocs.alipay.com/open/194/106078
 */

export const ALIPAY_DEFAULT_GATEWAY = 'https://openapi.alipay.com/gateway.do';

export interface AlipayConfig {
  /** The application's APPID. */
  appId: string;
  /** Our application private key (PEM, or the bare base64 the Alipay key tool writes). */
  appPrivateKey: KeyInput;
  /** The Alipay public key (支付宝公钥) shown in the open-platform console. */
  alipayPublicKey: KeyInput;
  /** The merchant's Alipay user id (2088…); when set, notifications for other sellers are refused. */
  sellerId?: string;
  /** Default https://openapi.alipay.com/gateway.do; the sandbox gateway in sandbox mode. */
  gateway?: string;
}

export interface AlipayProvider extends PaymentProvider {
  readonly channel: 'ali';
}

interface AlipayAnswer {
  /** The parsed `<method>_response` (or error_response) node. */
  node: Record<string, unknown>;
  /** Whether the node carried a valid signature (success answers always must). */
  verified: boolean;
}

/**
 * Builds the adapter; keys are parsed now and kept in this closure only.
 * @throws Error naming the bad setting (never its value).
 */
export function createAlipayProvider(config: AlipayConfig, runtime: ProviderRuntime = {}): AlipayProvider {
  const { appId, sellerId } = config;
  if (!appId) throw new Error('Alipay: app id is required');
  const privateKey = loadPrivateKey(config.appPrivateKey);
  const alipayKey = loadPublicKey(config.alipayPublicKey);
  const gateway = config.gateway ?? ALIPAY_DEFAULT_GATEWAY;
  const fetchFn: FetchFn = runtime.fetch ?? ((input, init) => fetch(input, init));
  const now = runtime.now ?? Date.now;
  const timeoutMs = runtime.timeoutMs ?? 10_000;

  function fail(kind: PaymentProviderErrorKind, message: string, providerCode?: string) {
    return new PaymentProviderError('ali', kind, message, { providerCode });
  }

  /**
   * Calls one API method. Resolves with the node for code 10000 and for business errors (40004)
   * whose answer is signed; throws for everything else.
   */
  async function call(
    method: string,
    bizContent: Record<string, unknown>,
    extra: Record<string, string> = {},
  ): Promise<AlipayAnswer> {
    const params: Record<string, string> = {
      app_id: appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: formatShanghaiDateTime(new Date(now())),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(bizContent),
    };
    params.sign = signSha256WithRsa(buildSignContent(params, REQUEST_SIGN_EXCLUDE), privateKey);
    const answer = await sendHttp(
      'ali',
      method,
      fetchFn,
      gateway,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8',
          Accept: 'application/json',
        },
        body: new URLSearchParams(params).toString(),
      },
      timeoutMs,
    );
    if (answer.status >= 500 || answer.status === 429) {
      throw new PaymentProviderError('ali', 'UNAVAILABLE', `${method}: HTTP ${answer.status}`, {
        httpStatus: answer.status,
      });
    }
    const found = extractResponseNode(answer.text, method);
    if (!found) {
      throw new PaymentProviderError(
        'ali',
        'BAD_RESPONSE',
        `${method}: not an Alipay answer (HTTP ${answer.status})`,
        {
          httpStatus: answer.status,
        },
      );
    }
    const verified = found.sign !== undefined && verifySha256WithRsa(found.nodeText, found.sign, alipayKey);
    if (found.sign !== undefined && !verified)
      throw fail('BAD_RESPONSE', `${method}: answer signature is invalid`);
    const node = JSON.parse(found.nodeText) as Record<string, unknown>;
    const code = String(node.code ?? '');
    const subCode = typeof node.sub_code === 'string' ? node.sub_code : undefined;
    if (code === '10000') {
      // Only signed successes count: Alipay signs every success answer.
      if (!verified) throw fail('BAD_RESPONSE', `${method}: success answer is not signed`);
      return { node, verified };
    }
    const subMsg = typeof node.sub_msg === 'string' ? ` ${node.sub_msg.slice(0, 200)}` : '';
    const description = `${method}: ${code} ${subCode ?? String(node.msg ?? '')}${subMsg}`;
    if (code === '20000' || subCode === 'ACQ.SYSTEM_ERROR' || subCode?.startsWith('isp.')) {
      throw fail('UNAVAILABLE', description, subCode);
    }
    if (code === '40004' && verified) return { node, verified };
    throw fail('REJECTED', description, subCode ?? code);
  }

  /** Throws the business error of a 40004 node, mapped for `operation`. */
  function businessError(
    method: string,
    node: Record<string, unknown>,
    map: Record<string, PaymentProviderErrorKind>,
  ) {
    const subCode = String(node.sub_code ?? '');
    const subMsg = typeof node.sub_msg === 'string' ? ` ${node.sub_msg.slice(0, 200)}` : '';
    return fail(map[subCode] ?? 'REJECTED', `${method}: ${subCode}${subMsg}`, subCode);
  }

  function checkOrderNo(orderNo: string): void {
    if (!ORDER_NO_PATTERN.test(orderNo))
      throw fail('INVALID_ARGUMENT', 'order number must be 6-32 of [0-9A-Za-z_-|*]');
  }

  async function query(orderNo: string): Promise<QueryResult> {
    checkOrderNo(orderNo);
    const { node } = await call('alipay.trade.query', { out_trade_no: orderNo });
    if (node.code !== '10000') {
      // The trade does not exist until the QR code is scanned: not paid.
      if (node.sub_code === 'ACQ.TRADE_NOT_EXIST') return { orderNo, state: 'NOTPAY' };
      throw businessError('alipay.trade.query', node, {});
    }
    if (node.out_trade_no !== orderNo)
      throw fail('BAD_RESPONSE', 'alipay.trade.query: answer is for another order');
    const paid = typeof node.send_pay_date === 'string' ? parseShanghaiDateTime(node.send_pay_date) : null;
    let state: TradeState;
    switch (node.trade_status) {
      case 'WAIT_BUYER_PAY':
        state = 'NOTPAY';
        break;
      case 'TRADE_SUCCESS':
      case 'TRADE_FINISHED':
        state = 'SUCCESS';
        break;
      case 'TRADE_CLOSED':
        // Closed after payment means fully refunded; closed without a payment date means unpaid.
        state = paid ? 'REFUND' : 'CLOSED';
        break;
      default:
        throw fail('BAD_RESPONSE', 'alipay.trade.query: unknown trade_status');
    }
    const result: QueryResult = { orderNo, state };
    if (typeof node.trade_no === 'string' && node.trade_no) result.transactionId = node.trade_no;
    const amountFen = typeof node.total_amount === 'string' ? parseYuanToFen(node.total_amount) : null;
    if (amountFen !== null) result.amountFen = amountFen;
    if (paid) result.paidAt = paid;
    if (state === 'SUCCESS' && (!result.transactionId || result.amountFen === undefined)) {
      throw fail('BAD_RESPONSE', 'alipay.trade.query: paid without trade_no or total_amount');
    }
    return result;
  }

  return {
    channel: 'ali',

    async createQr(input: CreateQrInput): Promise<CreateQrResult> {
      checkOrderNo(input.orderNo);
      if (!isAmountFen(input.amountFen))
        throw fail('INVALID_ARGUMENT', 'amount must be a positive integer of fen');
      if (!input.description || [...input.description].length > 256) {
        throw fail('INVALID_ARGUMENT', 'description must be 1-256 characters');
      }
      if (Number.isNaN(input.expireAt.getTime())) throw fail('INVALID_ARGUMENT', 'expireAt is not a date');
      if (!isHttpUrl(input.notifyUrl) || input.notifyUrl.length > 256) {
        throw fail('INVALID_ARGUMENT', 'notifyUrl must be an absolute http(s) URL ≤ 256 characters');
      }
      const method = 'alipay.trade.precreate';
      const { node } = await call(
        method,
        {
          out_trade_no: input.orderNo,
          total_amount: formatFenAsYuan(input.amountFen),
          subject: input.description,
          // Without it an unscanned QR code stays payable for Alipay's default 2 hours even after
          // we close the order (close cannot reach a trade that does not exist yet).
          time_expire: formatShanghaiDateTime(input.expireAt),
        },
        { notify_url: input.notifyUrl },
      );
      if (node.code !== '10000') {
        throw businessError(method, node, {
          'ACQ.TRADE_HAS_SUCCESS': 'ORDER_PAID',
          'ACQ.TRADE_HAS_CLOSE': 'ORDER_CLOSED',
          'ACQ.CONTEXT_INCONSISTENT': 'DUPLICATE_ORDER',
        });
      }
      if (node.out_trade_no !== input.orderNo || typeof node.qr_code !== 'string' || !node.qr_code) {
        throw fail('BAD_RESPONSE', `${method}: no qr_code for this order`);
      }
      return { codeUrl: node.qr_code };
    },

    query,

    async close(orderNo: string): Promise<CloseResult> {
      checkOrderNo(orderNo);
      const method = 'alipay.trade.close';
      const { node } = await call(method, { out_trade_no: orderNo });
      if (node.code === '10000') return { state: 'CLOSED' };
      if (node.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'NOT_CREATED' };
      if (node.sub_code === 'ACQ.TRADE_STATUS_ERROR') {
        // Paid, or closed already: ask which.
        const current = await query(orderNo);
        if (current.state === 'CLOSED') return { state: 'CLOSED' };
        if (current.state === 'SUCCESS' || current.state === 'REFUND') {
          throw fail('ORDER_PAID', `${method}: the trade is paid`, 'ACQ.TRADE_STATUS_ERROR');
        }
      }
      throw businessError(method, node, {});
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      checkOrderNo(input.orderNo);
      if (!/^[0-9A-Za-z_\-|*@]{1,64}$/.test(input.refundNo)) {
        throw fail('INVALID_ARGUMENT', 'refund number must be 1-64 of [0-9A-Za-z_-|*@]');
      }
      if (!isAmountFen(input.amountFen) || !isAmountFen(input.totalFen) || input.amountFen > input.totalFen) {
        throw fail('INVALID_ARGUMENT', 'refund amount must be positive fen not above the total');
      }
      const method = 'alipay.trade.refund';
      const reason = [...input.reason].slice(0, 80).join('');
      const { node } = await call(method, {
        out_trade_no: input.orderNo,
        out_request_no: input.refundNo,
        refund_amount: formatFenAsYuan(input.amountFen),
        ...(reason ? { refund_reason: reason } : {}),
      });
      if (node.code !== '10000') {
        throw businessError(method, node, {
          'ACQ.TRADE_NOT_EXIST': 'REFUND_REJECTED',
          'ACQ.TRADE_STATUS_ERROR': 'REFUND_REJECTED',
          'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL': 'REFUND_REJECTED',
          'ACQ.REFUND_FEE_ERROR': 'REFUND_REJECTED',
          'ACQ.TRADE_HAS_FINISHED': 'REFUND_REJECTED',
          'ACQ.SELLER_BALANCE_NOT_ENOUGH': 'REFUND_REJECTED',
          'ACQ.REASON_TRADE_REFUND_FEE_ERR': 'REFUND_REJECTED',
        });
      }
      // refund_fee is the total refunded on this trade so far, so it covers this refund.
      const refundedFen = typeof node.refund_fee === 'string' ? parseYuanToFen(node.refund_fee) : null;
      if (node.out_trade_no !== input.orderNo || typeof node.trade_no !== 'string' || refundedFen === null) {
        throw fail('BAD_RESPONSE', `${method}: answer is for another order or incomplete`);
      }
      if (refundedFen < input.amountFen)
        throw fail('BAD_RESPONSE', `${method}: refunded total below this refund`);
      return {
        refundId: `${node.trade_no}:${input.refundNo}`,
        refundNo: input.refundNo,
        state: 'SUCCESS',
        amountFen: input.amountFen,
      };
    },

    verifyNotification(input: IncomingNotification): PaymentNotification {
      const body = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
      const malformed = (what: string) =>
        new PaymentNotificationError('ali', 'MALFORMED', `notification: ${what}`);
      const params: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(body)) {
        if (key in params) throw malformed(`repeated field ${key.slice(0, 40)}`);
        params[key] = value;
      }
      if (params.sign_type !== 'RSA2' || !params.sign) {
        throw new PaymentNotificationError(
          'ali',
          'BAD_SIGNATURE',
          'notification: missing sign or sign_type is not RSA2',
        );
      }
      if (!verifySha256WithRsa(buildSignContent(params, NOTIFY_SIGN_EXCLUDE), params.sign, alipayKey)) {
        throw new PaymentNotificationError('ali', 'BAD_SIGNATURE', 'notification: signature is invalid');
      }
      if (params.app_id !== appId || (sellerId !== undefined && params.seller_id !== sellerId)) {
        throw new PaymentNotificationError(
          'ali',
          'WRONG_MERCHANT',
          'notification: for another app_id or seller_id',
        );
      }
      const { out_trade_no: orderNo, trade_no: transactionId } = params;
      if (!orderNo || !transactionId) throw malformed('missing out_trade_no or trade_no');
      const amountFen = parseYuanToFen(params.total_amount ?? '');
      if (amountFen === null || amountFen === 0) throw malformed('bad total_amount');
      const paidAt = params.gmt_payment ? parseShanghaiDateTime(params.gmt_payment) : null;
      const isRefund = Boolean(params.refund_fee || params.gmt_refund);
      let state: TradeState;
      switch (params.trade_status) {
        case 'TRADE_SUCCESS':
        case 'TRADE_FINISHED':
          state = isRefund ? 'REFUND' : 'SUCCESS';
          break;
        case 'TRADE_CLOSED':
          state = isRefund ? 'REFUND' : 'CLOSED';
          break;
        case 'WAIT_BUYER_PAY':
          state = 'NOTPAY';
          break;
        default:
          throw malformed('unknown trade_status');
      }
      if (state === 'SUCCESS' && !paidAt) throw malformed('paid without gmt_payment');
      const result: PaymentNotification = {
        channel: 'ali',
        orderNo,
        transactionId,
        amountFen,
        state,
        notificationId: params.notify_id ?? '',
        raw: params,
      };
      if (paidAt) result.paidAt = paidAt;
      return result;
    },

    acknowledge(outcome: AckOutcome): NotificationAck {
      // Alipay looks at the 7 characters only; anything else is a failure and it redelivers.
      return {
        statusCode: 200,
        contentType: 'text/plain; charset=utf-8',
        body: outcome.ok ? 'success' : 'fail',
      };
    },
  };
}
