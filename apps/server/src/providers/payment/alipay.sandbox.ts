import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  buildSignContent,
  NOTIFY_SIGN_EXCLUDE,
  REQUEST_SIGN_EXCLUDE,
  responseNodeName,
} from './alipay.crypto.ts';
import { formatShanghaiDateTime, parseShanghaiDateTime } from './china-time.ts';
import { isHttpUrl } from './http.ts';
import { formatFenAsYuan, parseYuanToFen } from './money.ts';
import { acceptRawBodies, rawBodyOf } from './raw-body.ts';
import { signSha256WithRsa, verifySha256WithRsa } from './rsa.ts';
import {
  isExpired,
  randomDigits,
  refundedFen,
  type SandboxContext,
  takeApiFault,
  withRefundRefusal,
} from './sandbox-context.ts';
import type { DeliveryBuilder } from './sandbox-notifier.ts';
import type { SandboxOrder } from './sandbox-store.ts';

/**
 * A loopback Alipay open-platform gateway for face-to-face payment. Like the real one it checks
 * our RSA2 signature with our application public key, signs each `<method>_response` node with
 * the Alipay private key, creates the trade only when the QR code is scanned, and on payment posts
 * a form notification signed with RSA2 to the notify_url given at precreate.
 */

export interface AlipaySandboxIdentity {
  appId: string;
  /** The merchant's Alipay user id (2088…), reported as seller_id. */
  sellerId: string;
  appPublicKey: KeyObject;
  alipayPrivateKey: KeyObject;
}

const DEFAULT_QR_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** The Alipay trade_status of a sandbox order (the trade must exist: scanned or paid). */
export function alipayTradeStatus(order: SandboxOrder, nowMs: number): string {
  switch (order.state) {
    case 'SUCCESS':
      return 'TRADE_SUCCESS';
    case 'REFUND':
      return refundedFen(order) >= order.amountFen ? 'TRADE_CLOSED' : 'TRADE_SUCCESS';
    case 'CLOSED':
      return 'TRADE_CLOSED';
    default:
      // Alipay closes a scanned, unpaid trade on its own once time_expire has passed.
      return isExpired(order, nowMs) ? 'TRADE_CLOSED' : 'WAIT_BUYER_PAY';
  }
}

/** Whether Alipay has a trade for this order: only after the QR code was scanned. */
export function alipayTradeExists(order: SandboxOrder | undefined): order is SandboxOrder {
  return order?.scanned === true;
}

/** Fills in the platform's payment fields (trade_no, buyer) on a freshly paid order. */
export function markAlipayPaid(order: SandboxOrder, nowMs: number): void {
  const day = formatShanghaiDateTime(new Date(nowMs)).slice(0, 10).replaceAll('-', '');
  order.state = 'SUCCESS';
  order.scanned = true;
  order.transactionId = `${day}2200${randomDigits(16)}`;
  order.paidAt = new Date(Math.floor(nowMs / 1000) * 1000).toISOString();
  order.payerId = `2088${randomDigits(12)}`;
}

/** The form fields of a payment notification, signed (sign over all but sign and sign_type). */
export function buildAlipayNotificationParams(
  identity: AlipaySandboxIdentity,
  order: SandboxOrder,
  nowMs: number,
): Record<string, string> {
  const amount = formatFenAsYuan(order.amountFen);
  const params: Record<string, string> = {
    notify_time: formatShanghaiDateTime(new Date(nowMs)),
    notify_type: 'trade_status_sync',
    notify_id: order.notification?.id ?? '',
    app_id: identity.appId,
    charset: 'utf-8',
    version: '1.0',
    sign_type: 'RSA2',
    trade_no: order.transactionId ?? '',
    out_trade_no: order.orderNo,
    buyer_id: order.payerId ?? '',
    buyer_logon_id: '138****0000',
    seller_id: identity.sellerId,
    trade_status: 'TRADE_SUCCESS',
    total_amount: amount,
    receipt_amount: amount,
    invoice_amount: amount,
    buyer_pay_amount: amount,
    point_amount: '0.00',
    subject: order.description,
    gmt_create: formatShanghaiDateTime(new Date(order.createdAt)),
    gmt_payment: formatShanghaiDateTime(new Date(order.paidAt ?? nowMs)),
    fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
  };
  params.sign = signSha256WithRsa(buildSignContent(params, NOTIFY_SIGN_EXCLUDE), identity.alipayPrivateKey);
  return params;
}

/** How the notifier delivers an Alipay notification: a form POST; only the body `success` acknowledges. */
export function alipayDeliveryBuilder(identity: AlipaySandboxIdentity, now: () => number): DeliveryBuilder {
  return (order) => ({
    url: order.notifyUrl,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
      'User-Agent': 'kyfw Alipay sandbox',
    },
    body: new URLSearchParams(buildAlipayNotificationParams(identity, order, now())).toString(),
    isAck: (_status, body) => body === 'success',
  });
}

type Node = Record<string, unknown>;

const SUCCESS = { code: '10000', msg: 'Success' } as const;

function businessError(subCode: string, subMsg: string): Node {
  return { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg };
}

/** The Fastify plugin: mount it so that `<prefix>/gateway.do` is the adapter's gateway URL. */
export function alipaySandboxRoutes(
  ctx: SandboxContext,
  identity: AlipaySandboxIdentity,
): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    acceptRawBodies(app);

    /** Answers `{"<node>":{…},"sign":"…"}`, signing the node text exactly as sent (unless unsigned). */
    function answer(reply: FastifyReply, method: string, node: Node, signed = true): FastifyReply {
      const name = method ? responseNodeName(method) : 'error_response';
      const nodeText = JSON.stringify(node);
      const sign = signed
        ? `,"sign":${JSON.stringify(signSha256WithRsa(nodeText, identity.alipayPrivateKey))}`
        : '';
      return reply
        .type('application/json; charset=utf-8')
        .send(`{${JSON.stringify(name)}:${nodeText}${sign}}`);
    }

    function readParams(request: FastifyRequest): Record<string, string> | null {
      const params: Record<string, string> = {};
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      for (const source of [query, rawBodyOf(request.body)]) {
        for (const [k, v] of new URLSearchParams(source)) {
          if (k in params && params[k] !== v) return null;
          params[k] = v;
        }
      }
      return params;
    }

    async function gateway(request: FastifyRequest, reply: FastifyReply) {
      const params = readParams(request);
      const method = params?.method ?? '';
      if (!params) {
        return answer(
          reply,
          '',
          { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter' },
          false,
        );
      }
      if (params.app_id !== identity.appId) {
        return answer(
          reply,
          method,
          {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-app-id',
            sub_msg: '无效的AppID参数',
          },
          false,
        );
      }
      if (params.sign_type !== 'RSA2') {
        return answer(
          reply,
          method,
          {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-signature-type',
            sub_msg: '无效的签名类型',
          },
          false,
        );
      }
      const signContent = buildSignContent(params, REQUEST_SIGN_EXCLUDE);
      if (!params.sign || !verifySha256WithRsa(signContent, params.sign, identity.appPublicKey)) {
        return answer(
          reply,
          method,
          {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-signature',
            sub_msg: '验签出错，建议检查签名字符串或签名私钥与应用公钥是否匹配',
          },
          false,
        );
      }
      if (!params.timestamp || !parseShanghaiDateTime(params.timestamp)) {
        return answer(reply, method, {
          code: '40002',
          msg: 'Invalid Arguments',
          sub_code: 'isv.invalid-timestamp',
          sub_msg: '非法的时间戳参数',
        });
      }
      if (await takeApiFault(ctx, 'ali')) {
        return answer(reply, method, {
          code: '20000',
          msg: 'Service Currently Unavailable',
          sub_code: 'isp.unknow-error',
          sub_msg: '系统繁忙',
        });
      }
      let biz: Node;
      try {
        biz = JSON.parse(params.biz_content ?? '{}') as Node;
      } catch {
        return answer(reply, method, businessError('ACQ.INVALID_PARAMETER', 'biz_content 不是合法的JSON'));
      }
      switch (method) {
        case 'alipay.trade.precreate':
          return answer(reply, method, await precreate(biz, params.notify_url));
        case 'alipay.trade.query':
          return answer(reply, method, await query(biz));
        case 'alipay.trade.close':
          return answer(reply, method, await close(biz));
        case 'alipay.trade.refund':
          return answer(reply, method, await refund(biz));
        default:
          return answer(
            reply,
            method,
            {
              code: '40002',
              msg: 'Invalid Arguments',
              sub_code: 'isv.invalid-method',
              sub_msg: '不存在的方法名',
            },
            false,
          );
      }
    }

    async function precreate(biz: Node, notifyUrl: string | undefined): Promise<Node> {
      const orderNo = biz.out_trade_no;
      const amountFen = typeof biz.total_amount === 'string' ? parseYuanToFen(biz.total_amount) : null;
      if (typeof orderNo !== 'string' || !orderNo || orderNo.length > 64) {
        return businessError('ACQ.INVALID_PARAMETER', 'out_trade_no 不合法');
      }
      if (amountFen === null || amountFen === 0)
        return businessError('ACQ.INVALID_PARAMETER', 'total_amount 不合法');
      if (typeof biz.subject !== 'string' || !biz.subject)
        return businessError('ACQ.INVALID_PARAMETER', 'subject 不能为空');
      if (!notifyUrl || !isHttpUrl(notifyUrl))
        return businessError('ACQ.INVALID_PARAMETER', 'notify_url 不合法');
      const timeExpireText = typeof biz.time_expire === 'string' ? biz.time_expire : '';
      const expireAt = timeExpireText
        ? parseShanghaiDateTime(timeExpireText)
        : new Date(ctx.now() + DEFAULT_QR_LIFETIME_MS);
      if (!expireAt) return businessError('ACQ.INVALID_PARAMETER', 'time_expire 格式错误');
      return ctx.store.change('ali', orderNo, (existing, put) => {
        if (existing) {
          if (existing.state === 'SUCCESS' || existing.state === 'REFUND') {
            return businessError('ACQ.TRADE_HAS_SUCCESS', '交易已被支付');
          }
          if (existing.state === 'CLOSED' || (existing.scanned && isExpired(existing, ctx.now()))) {
            return businessError('ACQ.TRADE_HAS_CLOSE', '交易已经关闭');
          }
          if (existing.amountFen !== amountFen || existing.description !== biz.subject) {
            return businessError('ACQ.CONTEXT_INCONSISTENT', '交易信息被篡改');
          }
          // Same order again: a fresh QR code, with the latest notify_url and expiry.
          existing.notifyUrl = notifyUrl;
          existing.timeExpireText = timeExpireText;
          existing.expireAt = expireAt.toISOString();
        } else {
          put({
            channel: 'ali',
            orderNo,
            amountFen,
            description: biz.subject as string,
            expireAt: expireAt.toISOString(),
            timeExpireText,
            notifyUrl,
            createdAt: new Date(ctx.now()).toISOString(),
            state: 'NOTPAY',
            scanned: false,
            refunds: [],
          });
        }
        return { ...SUCCESS, out_trade_no: orderNo, qr_code: ctx.payPageUrl('ali', orderNo) };
      });
    }

    async function query(biz: Node): Promise<Node> {
      const order =
        typeof biz.out_trade_no === 'string' ? await ctx.store.get('ali', biz.out_trade_no) : undefined;
      if (!alipayTradeExists(order)) return businessError('ACQ.TRADE_NOT_EXIST', '交易不存在');
      const paid = order.paidAt !== undefined;
      return {
        ...SUCCESS,
        trade_no: order.transactionId ?? '',
        out_trade_no: order.orderNo,
        buyer_logon_id: '138****0000',
        trade_status: alipayTradeStatus(order, ctx.now()),
        total_amount: formatFenAsYuan(order.amountFen),
        ...(paid
          ? {
              buyer_pay_amount: formatFenAsYuan(order.amountFen),
              send_pay_date: formatShanghaiDateTime(new Date(order.paidAt!)),
              buyer_user_id: order.payerId,
            }
          : {}),
      };
    }

    async function close(biz: Node): Promise<Node> {
      if (typeof biz.out_trade_no !== 'string') return businessError('ACQ.TRADE_NOT_EXIST', '交易不存在');
      return ctx.store.change('ali', biz.out_trade_no, (order) => {
        // Before the scan there is no trade to close: the QR code stays payable until time_expire.
        if (!alipayTradeExists(order)) return businessError('ACQ.TRADE_NOT_EXIST', '交易不存在');
        if (alipayTradeStatus(order, ctx.now()) !== 'WAIT_BUYER_PAY') {
          return businessError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
        }
        order.state = 'CLOSED';
        order.closedAt = new Date(ctx.now()).toISOString();
        return { ...SUCCESS, trade_no: order.transactionId ?? '', out_trade_no: order.orderNo };
      });
    }

    async function refund(biz: Node): Promise<Node> {
      if (typeof biz.out_trade_no !== 'string') return businessError('ACQ.TRADE_NOT_EXIST', '交易不存在');
      const orderNo = biz.out_trade_no;
      return withRefundRefusal(ctx, 'ali', (refuse, used) =>
        ctx.store.change('ali', orderNo, (order) => {
          if (!alipayTradeExists(order)) return businessError('ACQ.TRADE_NOT_EXIST', '交易不存在');
          if (order.state !== 'SUCCESS' && order.state !== 'REFUND') {
            return businessError('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
          }
          const amountFen = typeof biz.refund_amount === 'string' ? parseYuanToFen(biz.refund_amount) : null;
          if (amountFen === null || amountFen === 0)
            return businessError('ACQ.INVALID_PARAMETER', 'refund_amount 不合法');
          // Without out_request_no Alipay treats the request as one full refund.
          const refundNo =
            typeof biz.out_request_no === 'string' && biz.out_request_no ? biz.out_request_no : order.orderNo;
          const existing = order.refunds.find((r) => r.refundNo === refundNo);
          if (!existing && refuse) {
            used();
            return businessError('ACQ.SELLER_BALANCE_NOT_ENOUGH', '卖家余额不足');
          }
          let fundChange = 'N';
          if (existing) {
            if (existing.amountFen !== amountFen)
              return businessError('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额与首次请求不一致');
          } else {
            if (refundedFen(order) + amountFen > order.amountFen) {
              return businessError('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
            }
            order.refunds.push({
              refundNo,
              refundId: `${order.transactionId}:${refundNo}`,
              amountFen,
              reason: typeof biz.refund_reason === 'string' ? biz.refund_reason : '',
              createdAt: new Date(ctx.now()).toISOString(),
            });
            order.state = 'REFUND';
            fundChange = 'Y';
          }
          return {
            ...SUCCESS,
            trade_no: order.transactionId,
            out_trade_no: order.orderNo,
            buyer_logon_id: '138****0000',
            fund_change: fundChange,
            refund_fee: formatFenAsYuan(refundedFen(order)),
            gmt_refund_pay: formatShanghaiDateTime(new Date(ctx.now())),
            buyer_user_id: order.payerId,
          };
        }),
      );
    }

    app.post('/gateway.do', gateway);
    app.get('/gateway.do', gateway);
  };
}
