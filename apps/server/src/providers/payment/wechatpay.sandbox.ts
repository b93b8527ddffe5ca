import { type KeyObject, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { formatRfc3339Shanghai, parseRfc3339 } from './china-time.ts';
import { isHttpUrl } from './http.ts';
import { isAmountFen } from './money.ts';
import { ORDER_NO_PATTERN } from './payment.types.ts';
import { acceptRawBodies, rawBodyOf } from './raw-body.ts';
import { signSha256WithRsa, verifySha256WithRsa } from './rsa.ts';
import {
  randomDigits,
  refundedFen,
  type SandboxContext,
  takeApiFault,
  withRefundRefusal,
} from './sandbox-context.ts';
import type { DeliveryBuilder } from './sandbox-notifier.ts';
import type { SandboxOrder } from './sandbox-store.ts';
import {
  buildRequestSignMessage,
  buildResponseSignMessage,
  createNonce,
  encryptResource,
  isFreshTimestamp,
  parseAuthorization,
  unixSeconds,
  WECHATPAY_AUTH_SCHEME,
} from './wechatpay.crypto.ts';

/**
 * A loopback WeChat Pay API v3 (Native) that behaves like the real platform towards our adapter:
 * it checks our WECHATPAY2-SHA256-RSA2048 signatures with our merchant public key, keeps its own
 * orders, signs every answer with the platform private key under the `PUB_KEY_ID_…` serial, and
 * on payment posts an AES-256-GCM encrypted, signed notification to the order's notify_url.
 */

/** The platform's side of the credentials. */
export interface WechatSandboxIdentity {
  mchid: string;
  appid: string;
  /** The serial our requests must name. */
  merchantSerialNo: string;
  merchantPublicKey: KeyObject;
  platformPrivateKey: KeyObject;
  /** `PUB_KEY_ID_…`, sent as Wechatpay-Serial. */
  platformPublicKeyId: string;
  apiV3Key: Buffer;
}

const STATE_DESC: Record<SandboxOrder['state'], string> = {
  NOTPAY: '订单未支付',
  SUCCESS: '支付成功',
  REFUND: '转入退款',
  CLOSED: '订单已关闭',
};

/** Headers that sign `body` as the platform: Wechatpay-Serial/Timestamp/Nonce/Signature. */
export function signAsWechatPlatform(identity: WechatSandboxIdentity, body: string, nowMs: number) {
  const timestamp = unixSeconds(nowMs);
  const nonce = createNonce();
  return {
    'Wechatpay-Serial': identity.platformPublicKeyId,
    'Wechatpay-Timestamp': timestamp,
    'Wechatpay-Nonce': nonce,
    'Wechatpay-Signature': signSha256WithRsa(
      buildResponseSignMessage(timestamp, nonce, body),
      identity.platformPrivateKey,
    ),
    'Wechatpay-Signature-Type': WECHATPAY_AUTH_SCHEME,
  };
}

/** The transaction resource WeChat reports for an order (query answer and notification plaintext). */
export function wechatTransaction(
  identity: WechatSandboxIdentity,
  order: SandboxOrder,
): Record<string, unknown> {
  const paid = order.state === 'SUCCESS' || order.state === 'REFUND';
  return {
    appid: identity.appid,
    mchid: identity.mchid,
    out_trade_no: order.orderNo,
    ...(order.transactionId ? { transaction_id: order.transactionId } : {}),
    trade_type: 'NATIVE',
    trade_state: order.state,
    trade_state_desc: STATE_DESC[order.state],
    ...(paid ? { bank_type: 'OTHERS', success_time: formatRfc3339Shanghai(new Date(order.paidAt!)) } : {}),
    attach: '',
    ...(order.payerId ? { payer: { openid: order.payerId } } : {}),
    amount: paid
      ? { total: order.amountFen, payer_total: order.amountFen, currency: 'CNY', payer_currency: 'CNY' }
      : { total: order.amountFen, currency: 'CNY' },
  };
}

/** Fills in the platform's payment fields (transaction id, payer) on a freshly paid order. */
export function markWechatPaid(order: SandboxOrder, nowMs: number): void {
  const day = formatRfc3339Shanghai(new Date(nowMs)).slice(0, 10).replaceAll('-', '');
  order.state = 'SUCCESS';
  order.transactionId = `4200${randomDigits(6)}${day}${randomDigits(10)}`;
  order.paidAt = new Date(Math.floor(nowMs / 1000) * 1000).toISOString();
  order.payerId = `oSandbox${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

/** The encrypted notification body for a paid order (fixed once; each attempt re-signs it). */
export function buildWechatNotificationBody(
  identity: WechatSandboxIdentity,
  order: SandboxOrder,
  nowMs: number,
): string {
  const resource = encryptResource(
    JSON.stringify(wechatTransaction(identity, order)),
    identity.apiV3Key,
    createNonce().slice(0, 12),
    'transaction',
  );
  return JSON.stringify({
    id: order.notification?.id ?? `EV-${randomUUID()}`,
    create_time: formatRfc3339Shanghai(new Date(nowMs)),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: { original_type: 'transaction', ...resource },
  });
}

/** How the notifier delivers a WeChat notification: JSON, signed headers; 200/204 acknowledges. */
export function wechatDeliveryBuilder(identity: WechatSandboxIdentity, now: () => number): DeliveryBuilder {
  return (order) => {
    const body = order.notification?.body ?? buildWechatNotificationBody(identity, order, now());
    return {
      url: order.notifyUrl,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Mozilla/4.0 (kyfw WeChat Pay sandbox)',
        ...signAsWechatPlatform(identity, body, now()),
      },
      body,
      isAck: (status) => status === 200 || status === 204,
    };
  };
}

interface NativeBody {
  appid?: unknown;
  mchid?: unknown;
  description?: unknown;
  out_trade_no?: unknown;
  time_expire?: unknown;
  notify_url?: unknown;
  amount?: { total?: unknown; currency?: unknown };
}

interface RefundBody {
  out_trade_no?: unknown;
  out_refund_no?: unknown;
  reason?: unknown;
  amount?: { refund?: unknown; total?: unknown; currency?: unknown };
}

/** The Fastify plugin: mount it where the adapter's baseUrl points (e.g. `/__sandbox/wechatpay`). */
export function wechatpaySandboxRoutes(
  ctx: SandboxContext,
  identity: WechatSandboxIdentity,
): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    acceptRawBodies(app);

    function answer(reply: FastifyReply, status: number, body?: unknown): FastifyReply {
      const text = body === undefined ? '' : JSON.stringify(body);
      reply
        .code(status)
        .headers({ ...signAsWechatPlatform(identity, text, ctx.now()), 'Request-ID': randomUUID() });
      if (body === undefined) return reply.send();
      return reply.type('application/json; charset=utf-8').send(text);
    }

    function error(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
      return answer(reply, status, { code, message });
    }

    /** Checks our merchant signature like the platform; answers 401 SIGN_ERROR and returns false when bad. */
    function authenticate(request: FastifyRequest, reply: FastifyReply): boolean {
      const auth = parseAuthorization(request.headers.authorization);
      const body = rawBodyOf(request.body);
      const ok =
        auth !== null &&
        auth.mchid === identity.mchid &&
        auth.serialNo === identity.merchantSerialNo &&
        isFreshTimestamp(auth.timestamp, ctx.now()) &&
        verifySha256WithRsa(
          buildRequestSignMessage(request.method, request.url, auth.timestamp, auth.nonce, body),
          auth.signature,
          identity.merchantPublicKey,
        );
      if (!ok) error(reply, 401, 'SIGN_ERROR', '签名错误，请检查后再试');
      return ok;
    }

    /** Common gate: signature, then the system-error fault. */
    async function admit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
      if (!authenticate(request, reply)) return false;
      if (await takeApiFault(ctx, 'wx')) {
        error(reply, 500, 'SYSTEM_ERROR', '系统错误');
        return false;
      }
      return true;
    }

    function parseBody<T>(request: FastifyRequest, reply: FastifyReply): T | null {
      try {
        const parsed = JSON.parse(rawBodyOf(request.body)) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as T;
      } catch {
        // fall through
      }
      error(reply, 400, 'PARAM_ERROR', '请求体不是合法的JSON');
      return null;
    }

    app.post('/v3/pay/transactions/native', async (request, reply) => {
      if (!(await admit(request, reply))) return reply;
      const body = parseBody<NativeBody>(request, reply);
      if (!body) return reply;
      if (body.mchid !== identity.mchid) return error(reply, 400, 'MCH_NOT_EXISTS', '商户号不存在');
      if (body.appid !== identity.appid)
        return error(reply, 400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
      const orderNo = body.out_trade_no;
      const total = body.amount?.total;
      const expireAt = typeof body.time_expire === 'string' ? parseRfc3339(body.time_expire) : null;
      if (typeof orderNo !== 'string' || !ORDER_NO_PATTERN.test(orderNo)) {
        return error(
          reply,
          400,
          'PARAM_ERROR',
          '输入源“/body/out_trade_no”映射到字段“商户订单号”必填性规则校验失败',
        );
      }
      if (typeof body.description !== 'string' || !body.description || [...body.description].length > 127) {
        return error(reply, 400, 'PARAM_ERROR', '商品描述不合法');
      }
      if (!isAmountFen(total) || (body.amount?.currency ?? 'CNY') !== 'CNY') {
        return error(reply, 400, 'PARAM_ERROR', '订单金额不合法');
      }
      if (!expireAt) return error(reply, 400, 'PARAM_ERROR', 'time_expire 格式错误');
      if (
        typeof body.notify_url !== 'string' ||
        !isHttpUrl(body.notify_url) ||
        body.notify_url.includes('?')
      ) {
        return error(reply, 400, 'PARAM_ERROR', 'notify_url 格式错误');
      }
      const respond = await ctx.store.change('wx', orderNo, (existing, put) => {
        if (existing) {
          if (existing.state === 'SUCCESS' || existing.state === 'REFUND') {
            return () => error(reply, 400, 'ORDERPAID', '该订单已支付');
          }
          if (existing.state === 'CLOSED') return () => error(reply, 400, 'ORDER_CLOSED', '订单已关闭');
          const same =
            existing.amountFen === total &&
            existing.description === body.description &&
            existing.timeExpireText === body.time_expire &&
            existing.notifyUrl === body.notify_url;
          if (!same) return () => error(reply, 403, 'OUT_TRADE_NO_USED', '商户订单号重复');
          return () => answer(reply, 200, { code_url: ctx.payPageUrl('wx', orderNo) });
        }
        put({
          channel: 'wx',
          orderNo,
          amountFen: total,
          description: body.description as string,
          expireAt: expireAt.toISOString(),
          timeExpireText: body.time_expire as string,
          notifyUrl: body.notify_url as string,
          createdAt: new Date(ctx.now()).toISOString(),
          state: 'NOTPAY',
          scanned: false,
          refunds: [],
        });
        return () => answer(reply, 200, { code_url: ctx.payPageUrl('wx', orderNo) });
      });
      return respond();
    });

    app.get<{ Params: { orderNo: string }; Querystring: { mchid?: string } }>(
      '/v3/pay/transactions/out-trade-no/:orderNo',
      async (request, reply) => {
        if (!(await admit(request, reply))) return reply;
        if (request.query.mchid !== identity.mchid) return error(reply, 400, 'PARAM_ERROR', 'mchid 不正确');
        const order = await ctx.store.get('wx', request.params.orderNo);
        if (!order) return error(reply, 404, 'ORDER_NOT_EXIST', '订单不存在');
        return answer(reply, 200, wechatTransaction(identity, order));
      },
    );

    app.post<{ Params: { orderNo: string } }>(
      '/v3/pay/transactions/out-trade-no/:orderNo/close',
      async (request, reply) => {
        if (!(await admit(request, reply))) return reply;
        const body = parseBody<{ mchid?: unknown }>(request, reply);
        if (!body) return reply;
        if (body.mchid !== identity.mchid) return error(reply, 400, 'PARAM_ERROR', 'mchid 不正确');
        const respond = await ctx.store.change('wx', request.params.orderNo, (order) => {
          if (!order) return () => error(reply, 404, 'ORDER_NOT_EXIST', '订单不存在');
          if (order.state === 'SUCCESS' || order.state === 'REFUND')
            return () => error(reply, 400, 'ORDERPAID', '订单已支付');
          if (order.state === 'NOTPAY') {
            order.state = 'CLOSED';
            order.closedAt = new Date(ctx.now()).toISOString();
          }
          return () => answer(reply, 204);
        });
        return respond();
      },
    );

    app.post('/v3/refund/domestic/refunds', async (request, reply) => {
      if (!(await admit(request, reply))) return reply;
      const body = parseBody<RefundBody>(request, reply);
      if (!body) return reply;
      const { out_trade_no: orderNo, out_refund_no: refundNo } = body;
      const refund = body.amount?.refund;
      const total = body.amount?.total;
      if (typeof orderNo !== 'string' || typeof refundNo !== 'string' || !refundNo || refundNo.length > 64) {
        return error(reply, 400, 'PARAM_ERROR', 'out_trade_no 或 out_refund_no 不合法');
      }
      if (!isAmountFen(refund) || !isAmountFen(total) || (body.amount?.currency ?? 'CNY') !== 'CNY') {
        return error(reply, 400, 'PARAM_ERROR', '退款金额不合法');
      }
      const respond = await withRefundRefusal(ctx, 'wx', (refuse, used) =>
        ctx.store.change('wx', orderNo, (order) => {
          if (!order) return () => error(reply, 404, 'RESOURCE_NOT_EXISTS', '订单不存在');
          if (order.state !== 'SUCCESS' && order.state !== 'REFUND') {
            return () => error(reply, 400, 'INVALID_REQUEST', '订单未支付，不能退款');
          }
          if (total !== order.amountFen)
            return () => error(reply, 400, 'PARAM_ERROR', '订单金额与原订单不一致');
          let entry = order.refunds.find((r) => r.refundNo === refundNo);
          if (!entry && refuse) {
            used();
            return () => error(reply, 403, 'NOT_ENOUGH', '基本账户余额不足，请充值后重新发起');
          }
          if (entry && entry.amountFen !== refund) {
            return () => error(reply, 400, 'INVALID_REQUEST', '退款单号已存在，且退款金额不一致');
          }
          if (!entry) {
            if (refundedFen(order) + refund > order.amountFen) {
              return () => error(reply, 400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
            }
            entry = {
              refundNo,
              refundId: `50${randomDigits(27)}`,
              amountFen: refund,
              reason: typeof body.reason === 'string' ? body.reason : '',
              createdAt: new Date(ctx.now()).toISOString(),
            };
            order.refunds.push(entry);
            order.state = 'REFUND';
          }
          const at = formatRfc3339Shanghai(new Date(entry.createdAt));
          return () =>
            answer(reply, 200, {
              refund_id: entry.refundId,
              out_refund_no: entry.refundNo,
              transaction_id: order.transactionId,
              out_trade_no: order.orderNo,
              channel: 'ORIGINAL',
              user_received_account: '支付用户零钱',
              success_time: at,
              create_time: at,
              status: 'SUCCESS',
              funds_account: 'AVAILABLE',
              amount: {
                total: order.amountFen,
                refund: entry.amountFen,
                payer_total: order.amountFen,
                payer_refund: entry.amountFen,
                settlement_refund: entry.amountFen,
                settlement_total: order.amountFen,
                discount_refund: 0,
                currency: 'CNY',
              },
            });
        }),
      );
      return respond();
    });
  };
}
