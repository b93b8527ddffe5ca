import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode, OPERATOR_ENDPOINT_SCOPES, type OperatorScope, ok, operatorApi } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appendAudit } from '../../../audit/index.ts';
import { AppError } from '../../../lib/app-error.ts';
import { route } from '../../../lib/route.ts';
import { findDelivery } from '../addresses/addresses.repo.ts';
import { shipOrder, toDeliveryView } from '../addresses/addresses.service.ts';
import { updateGoods } from '../goods.repo.ts';
import { toGoodsView } from '../goods.service.ts';
import { issueInvoice } from '../invoices/invoices.service.ts';
import { findOrderByNo } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { getOrderHistory } from '../orders.service.ts';
import { TEXTS } from '../orders.texts.ts';
import { toOrderView } from '../orders.view.ts';
import { listAttempts } from '../payments/attempts.repo.ts';
import {
  confirmOfflineProof,
  listProofsForOperator,
  readProofFile,
  rejectOfflineProof,
} from '../payments/offline.service.ts';
import { listFlaggedPayments, listOrderPayments } from '../payments/payments.repo.ts';
import { toRefundView } from '../payments/records.service.ts';
import { listOrderRefunds } from '../payments/refunds.repo.ts';
import { requestRefund } from '../payments/refunds.service.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** The path of a route under /operator (`/orders/refund`), as the audit log names it. */
const operatorPath = (url: string) => url.replace(/^.*\/operator(?=\/)/, '');

/** The scope each route needs, by its path under /operator. */
const SCOPE_OF_PATH = new Map<string, OperatorScope>(
  (Object.keys(operatorApi) as (keyof typeof operatorApi)[]).map((name) => [
    operatorPath(operatorApi[name].path),
    OPERATOR_ENDPOINT_SCOPES[name],
  ]),
);

/**
 * Why a call was refused (a wrong token, or a scope the token lacks), for its audit row. A wrong
 * token carries its number in the client's window and whether that number is audited.
 */
const refusals = new WeakMap<
  FastifyRequest,
  { reason: 'token' | 'scope'; scope?: OperatorScope; count?: number; audited?: boolean }
>();

/** Wrong tokens from one client address are counted over this window… */
const WRONG_TOKEN_WINDOW_MS = 10 * 60_000;
/** …and past this many in it answered 1009 instead of 3020 (the right token still works). */
const WRONG_TOKEN_MAX = 20;

/**
 * Wrong-token refusals per client address (this process): throttled past WRONG_TOKEN_MAX in a
 * window, and aggregated in the audit log — a row at the 1st, 10th, 100th, … refusal of the window,
 * each with the count so far — instead of one row per call (300 anonymous calls wrote 300 rows).
 */
function createWrongTokenCounter(now: () => Date) {
  const byAddress = new Map<string, { windowStart: number; count: number }>();
  return (address: string) => {
    const at = now().getTime();
    if (byAddress.size > 10_000) {
      for (const [key, entry] of byAddress)
        if (at - entry.windowStart >= WRONG_TOKEN_WINDOW_MS) byAddress.delete(key);
    }
    let entry = byAddress.get(address);
    if (!entry || at - entry.windowStart >= WRONG_TOKEN_WINDOW_MS) {
      entry = { windowStart: at, count: 0 };
      byAddress.set(address, entry);
    }
    entry.count++;
    const audited = /^10*$/.test(String(entry.count));
    return { count: entry.count, audited, throttled: entry.count > WRONG_TOKEN_MAX };
  };
}

/**
 * Every call of the shared-token API — answered, failed or refused — is one audit_log row, like a
 * console action: who is `operator-token` (role `automation`: the token names no person), the
 * action `token:<path>`, the target (order number, invoice, proof or goods id of the body), the
 * outcome by the envelope's code, and the caller's IP and user agent. The token is never written.
 */
async function auditTokenCall(
  rt: OrdersRuntime,
  request: FastifyRequest,
  statusCode: number,
  payload: unknown,
): Promise<void> {
  let code: number | undefined;
  if (typeof payload === 'string') {
    try {
      code = (JSON.parse(payload) as { code?: number }).code;
    } catch {
      code = undefined;
    }
  } else if (statusCode < 400) {
    code = 0; // a file
  }
  const refusal = refusals.get(request);
  if (refusal?.reason === 'token' && !refusal.audited) return; // counted in the window's next row
  const outcome =
    code === 0 ? 'ok' : refusal ? 'refused' : code === ErrorCode.VALIDATION ? 'invalid' : 'failed';
  const body = (request.body ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const target = [body.orderNo, body.invoiceId, body.proofId, body.goodsId, params.proofId].find(
    (v): v is string => typeof v === 'string',
  );
  const ua = request.headers['user-agent'];
  const path = operatorPath(request.routeOptions.url ?? request.url.split('?')[0] ?? '');
  try {
    await appendAudit(rt.db, {
      at: rt.now(),
      staffId: null,
      username: 'operator-token',
      role: 'automation',
      action: `token:${path}`,
      target: target ?? null,
      outcome,
      detail: {
        code: code ?? null,
        status: statusCode,
        ...(refusal
          ? {
              reason: refusal.reason,
              ...(refusal.scope ? { scope: refusal.scope } : {}),
              ...(refusal.count ? { refusedInWindow: refusal.count } : {}),
            }
          : {}),
      },
      ip: request.ip || null,
      userAgent: typeof ua === 'string' ? ua : null,
    });
  } catch (error) {
    request.log.error({ err: error }, 'operator API: audit row not written');
  }
}

/**
 * The shared-token operator API under /kyfw/web/v1/operator (envelope; its paths and schemas are
 * operatorApi in packages/contracts/src/api/operator.ts), for automation only — people use the
 * console (/admin). Every call is written to the audit log as `operator-token`.
 * Every call needs the header `x-operator-token` equal to OPERATOR_TOKEN (compared in constant
 * time over SHA-256 digests; with OPERATOR_TOKEN unset every call is refused: 3020) and the
 * endpoint's scope among OPERATOR_TOKEN_SCOPES (OPERATOR_ENDPOINT_SCOPES; none by default: 1004).
 */
export async function operatorRoutes(app: FastifyInstance, options: { rt: OrdersRuntime }): Promise<void> {
  const { rt } = options;
  const expected = rt.config.operatorToken ? sha256(rt.config.operatorToken.reveal()) : undefined;

  const granted = new Set<OperatorScope>(rt.config.operatorScopes);
  const countWrongToken = createWrongTokenCounter(rt.now);

  function assertOperator(request: FastifyRequest): void {
    const given = request.headers['x-operator-token'];
    if (!expected || typeof given !== 'string' || !timingSafeEqual(sha256(given), expected)) {
      const { count, audited, throttled } = countWrongToken(request.ip);
      if (audited) request.log.warn({ url: request.url, refusedInWindow: count }, 'operator API refused');
      refusals.set(request, { reason: 'token', count, audited });
      if (throttled) throw new AppError(ErrorCode.RATE_LIMITED, TEXTS.operatorTooManyWrongTokens);
      throw new AppError(ErrorCode.OPERATOR_UNAUTHORIZED);
    }
  }

  /** After the body is read (so the refusal's audit row names the target), before it is validated. */
  function assertScope(request: FastifyRequest): void {
    const scope = SCOPE_OF_PATH.get(operatorPath(request.routeOptions.url ?? ''));
    if (scope && !granted.has(scope)) {
      request.log.warn({ url: request.url, scope }, 'operator API refused: scope not granted');
      refusals.set(request, { reason: 'scope', scope });
      throw new AppError(ErrorCode.FORBIDDEN, TEXTS.operatorScopeMissing(scope));
    }
  }
  app.addHook('onRequest', async (request) => assertOperator(request));
  app.addHook('preValidation', async (request) => assertScope(request));
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    await auditTokenCall(rt, request, reply.statusCode, payload);
  });

  route(app, operatorApi.orderDetail, async ({ body }) => {
    const { orderNo } = body;
    const order = await findOrderByNo(rt.db, orderNo);
    if (!order) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '订单不存在');
    const [history, payments, refunds, attempts, delivery] = await Promise.all([
      getOrderHistory(rt.db, order.id),
      listOrderPayments(rt.db, order.id),
      listOrderRefunds(rt.db, order.id),
      listAttempts(rt.db, order.id),
      findDelivery(rt.db, order.id),
    ]);
    return ok({
      ...toOrderView(order, rt.now()),
      userId: order.userId,
      history,
      attempts: attempts.map((a) => ({ channel: a.channel, outTradeNo: a.outTradeNo, status: a.status })),
      payments: payments.map((p) => ({
        paymentId: p.id,
        channel: p.channel,
        transactionId: p.transactionId,
        amountFen: p.amountFen,
        paidAt: p.paidAt.toISOString(),
        status: p.status,
        source: p.source,
        flagged: p.flagged,
        flagReason: p.flagReason,
        refundedFen: p.refundedFen,
      })),
      refunds: refunds.map(toRefundView),
      delivery: toDeliveryView(delivery),
    });
  });

  route(app, operatorApi.refund, async ({ body }) => {
    return ok(toRefundView(await requestRefund(rt, body)));
  });

  route(app, operatorApi.ship, async ({ body }) => {
    return ok(await shipOrder(rt, body));
  });

  route(app, operatorApi.flaggedPayments, async () => {
    const list = await listFlaggedPayments(rt.db, 200);
    return ok(
      list.map((p) => ({
        paymentId: p.id,
        orderNo: p.orderNo,
        channel: p.channel,
        transactionId: p.transactionId,
        amountFen: p.amountFen,
        status: p.status,
        flagReason: p.flagReason,
        paidAt: p.paidAt.toISOString(),
      })),
    );
  });

  route(app, operatorApi.proofs, async ({ body }) => {
    return ok(await listProofsForOperator(rt, body.status ?? 'pending'));
  });

  route(app, operatorApi.proofFile, async ({ request, reply }) => {
    const { proofId } = request.params as { proofId: string };
    if (!/^[0-9a-f-]{36}$/i.test(proofId)) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND);
    const file = await readProofFile(rt, proofId);
    return reply
      .header('content-type', file.mimeType)
      .header('content-disposition', 'inline')
      .send(file.data);
  });

  route(app, operatorApi.confirmProof, async ({ body }) => {
    return ok(await confirmOfflineProof(rt, body));
  });

  route(app, operatorApi.rejectProof, async ({ body }) => {
    await rejectOfflineProof(rt, body);
    return ok(null);
  });

  route(app, operatorApi.issueInvoice, async ({ body }) => {
    const invoice = await issueInvoice(rt, body.invoiceId);
    return ok({ invoiceId: invoice.id, invoiceNo: invoice.invoiceNo, status: invoice.status });
  });

  route(app, operatorApi.updateGoods, async ({ body }) => {
    const { goodsId, ...patch } = body;
    const goods = await updateGoods(rt.db, goodsId, patch, rt.now());
    if (!goods) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '商品不存在');
    return ok(toGoodsView(goods));
  });
}
