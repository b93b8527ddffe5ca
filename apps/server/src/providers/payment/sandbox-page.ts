import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { formatShanghaiDateTime } from './china-time.ts';
import { formatFenAsYuan } from './money.ts';
import { PAY_CHANNELS, type PayChannel } from './payment.types.ts';
import { acceptRawBodies, rawBodyOf } from './raw-body.ts';
import type { SandboxOrder } from './sandbox-store.ts';

/**
 * The page a sandbox QR code opens: what a phone shows after scanning — the amount, the
 * description and a big 模拟支付 button. Pressing it pays the order exactly as a phone would
 * (the sandbox books the payment and sends the signed notification). Plain HTML forms, no script.
 */

/** Every user-visible text of the page, in one place. */
export const PAY_PAGE_TEXTS = {
  title: '模拟支付',
  channel: { wx: '微信支付（沙箱）', ali: '支付宝（沙箱）' } satisfies Record<PayChannel, string>,
  orderNo: '订单号',
  expireAt: '有效期至',
  pay: '模拟支付',
  cancel: '取消',
  notice: '这是本地沙箱页面，不会产生任何真实扣款。',
  paid: '支付成功',
  paidDetail: '商户已收到支付通知，请回到下单页面查看。',
  cancelled: '已取消支付',
  cancelledDetail: '订单仍可在有效期内重新扫码支付。',
  alreadyPaid: '该订单已支付',
  closed: '订单已关闭',
  expired: '订单已过期',
  notFound: '订单不存在',
  notFoundDetail: '沙箱中没有这笔订单，请回到下单页面重新获取二维码。',
} as const;

/** What the page needs from the sandbox. */
export interface PayPageSandbox {
  findOrder(channel: PayChannel, orderNo: string): Promise<SandboxOrder | undefined>;
  /** The phone scanned the QR code (Alipay creates its trade now). */
  scan(channel: PayChannel, orderNo: string): Promise<void>;
  payInSandbox(channel: PayChannel, orderNo: string): Promise<unknown>;
  now(): number;
}

export type SandboxPayErrorCode = 'ORDER_NOT_FOUND' | 'ORDER_PAID' | 'ORDER_CLOSED' | 'ORDER_EXPIRED';

/** Why the sandbox refused to pay an order; `message` is Chinese, fit for a toast. */
export class SandboxPayError extends Error {
  override readonly name = 'SandboxPayError';
  readonly code: SandboxPayErrorCode;

  constructor(code: SandboxPayErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export const SANDBOX_PAY_ERROR_TEXTS: Record<SandboxPayErrorCode, string> = {
  ORDER_NOT_FOUND: PAY_PAGE_TEXTS.notFound,
  ORDER_PAID: PAY_PAGE_TEXTS.alreadyPaid,
  ORDER_CLOSED: PAY_PAGE_TEXTS.closed,
  ORDER_EXPIRED: PAY_PAGE_TEXTS.expired,
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(channel: PayChannel, inner: string): string {
  const accent = channel === 'wx' ? '#07c160' : '#1677ff';
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PAY_PAGE_TEXTS.title} - ${PAY_PAGE_TEXTS.channel[channel]}</title>
<style>
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f5;color:#222}
main{max-width:420px;margin:0 auto;padding:32px 20px;text-align:center}
h1{font-size:18px;font-weight:500;color:${accent}}
.amount{font-size:40px;font-weight:600;margin:24px 0 8px}
.desc{font-size:16px;margin-bottom:16px;word-break:break-all}
dl{font-size:13px;color:#666;margin:0 0 28px}dt,dd{display:inline;margin:0}dd::after{content:"";display:block}
button{display:block;width:100%;border:0;border-radius:8px;font-size:18px;padding:14px;margin:12px 0;cursor:pointer}
.pay{background:${accent};color:#fff}.cancel{background:#fff;color:#333;border:1px solid #ddd}
.result{font-size:22px;margin:48px 0 12px}.notice{font-size:12px;color:#999;margin-top:32px}
</style></head><body><main>
<h1>${PAY_PAGE_TEXTS.channel[channel]}</h1>
${inner}
<p class="notice">${PAY_PAGE_TEXTS.notice}</p>
</main></body></html>`;
}

function resultPage(channel: PayChannel, title: string, detail = ''): string {
  return page(
    channel,
    `<p class="result" role="status">${escapeHtml(title)}</p>${detail ? `<p>${escapeHtml(detail)}</p>` : ''}`,
  );
}

function orderPage(channel: PayChannel, order: SandboxOrder): string {
  const action = `./${encodeURIComponent(order.orderNo)}`;
  return page(
    channel,
    `<p class="amount">¥${formatFenAsYuan(order.amountFen)}</p>
<p class="desc">${escapeHtml(order.description)}</p>
<dl><dt>${PAY_PAGE_TEXTS.orderNo}：</dt><dd>${escapeHtml(order.orderNo)}</dd>
<dt>${PAY_PAGE_TEXTS.expireAt}：</dt><dd>${formatShanghaiDateTime(new Date(order.expireAt))}</dd></dl>
<form method="post" action="${action}"><input type="hidden" name="action" value="pay">
<button type="submit" class="pay">${PAY_PAGE_TEXTS.pay}</button></form>
<form method="post" action="${action}"><input type="hidden" name="action" value="cancel">
<button type="submit" class="cancel">${PAY_PAGE_TEXTS.cancel}</button></form>`,
  );
}

/** The Fastify plugin: mount it at `<sandbox prefix>/pay` (e.g. `/__sandbox/pay`). */
export function payPageRoutes(sandbox: PayPageSandbox): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    acceptRawBodies(app, 4 * 1024);

    function send(reply: FastifyReply, html: string, status = 200): FastifyReply {
      return reply
        .code(status)
        .header('Cache-Control', 'no-store')
        .header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        )
        .type('text/html; charset=utf-8')
        .send(html);
    }

    function unpayable(channel: PayChannel, order: SandboxOrder | undefined): string | null {
      if (!order) return resultPage(channel, PAY_PAGE_TEXTS.notFound, PAY_PAGE_TEXTS.notFoundDetail);
      if (order.state === 'SUCCESS' || order.state === 'REFUND')
        return resultPage(channel, PAY_PAGE_TEXTS.alreadyPaid);
      if (order.state === 'CLOSED') return resultPage(channel, PAY_PAGE_TEXTS.closed);
      if (sandbox.now() >= Date.parse(order.expireAt)) return resultPage(channel, PAY_PAGE_TEXTS.expired);
      return null;
    }

    app.get<{ Params: { channel: string; orderNo: string } }>(
      '/:channel/:orderNo',
      async (request, reply) => {
        const channel = request.params.channel as PayChannel;
        if (!PAY_CHANNELS.includes(channel)) return reply.callNotFound();
        const order = await sandbox.findOrder(channel, request.params.orderNo);
        const refusal = unpayable(channel, order);
        if (refusal || !order) return send(reply, refusal ?? '', order ? 200 : 404);
        await sandbox.scan(channel, order.orderNo);
        return send(reply, orderPage(channel, order));
      },
    );

    app.post<{ Params: { channel: string; orderNo: string } }>(
      '/:channel/:orderNo',
      async (request, reply) => {
        const channel = request.params.channel as PayChannel;
        if (!PAY_CHANNELS.includes(channel)) return reply.callNotFound();
        const action = new URLSearchParams(rawBodyOf(request.body)).get('action');
        const order = await sandbox.findOrder(channel, request.params.orderNo);
        const refusal = unpayable(channel, order);
        if (refusal || !order) return send(reply, refusal ?? '', order ? 200 : 404);
        if (action === 'cancel') {
          return send(reply, resultPage(channel, PAY_PAGE_TEXTS.cancelled, PAY_PAGE_TEXTS.cancelledDetail));
        }
        if (action !== 'pay') return send(reply, orderPage(channel, order), 400);
        try {
          await sandbox.payInSandbox(channel, order.orderNo);
        } catch (error) {
          if (error instanceof SandboxPayError) return send(reply, resultPage(channel, error.message));
          throw error;
        }
        return send(reply, resultPage(channel, PAY_PAGE_TEXTS.paid, PAY_PAGE_TEXTS.paidDetail));
      },
    );
  };
}
