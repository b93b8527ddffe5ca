import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode, ok } from '@kyfw/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/app-error.ts';
import { parseBody } from '../../../lib/validate.ts';
import { findDelivery } from '../addresses/addresses.repo.ts';
import { shipOrder, toDeliveryView } from '../addresses/addresses.service.ts';
import { toGoodsView } from '../goods.service.ts';
import { issueInvoice } from '../invoices/invoices.service.ts';
import { findOrderByNo, listAttempts, updateGoods } from '../orders.repo.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import {
  operatorGoodsUpdateBody,
  operatorInvoiceIssueBody,
  operatorOrderBody,
  operatorProofConfirmBody,
  operatorProofListBody,
  operatorProofRejectBody,
  operatorRefundBody,
  operatorShipBody,
} from '../orders.schemas.ts';
import { getOrderHistory } from '../orders.service.ts';
import { toOrderView } from '../orders.view.ts';
import {
  confirmOfflineProof,
  listProofsForOperator,
  readProofFile,
  rejectOfflineProof,
} from '../payments/offline.service.ts';
import { listFlaggedPayments, listOrderPayments, listOrderRefunds } from '../payments/payments.repo.ts';
import { requestRefund, toRefundView } from '../payments/payments.service.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/**
 * The operator API under /kyfw/web/v1/operator (envelope), until the operator console exists.
 * Every call needs the header `x-operator-token` equal to OPERATOR_TOKEN (compared in constant
 * time over SHA-256 digests); with OPERATOR_TOKEN unset every call is refused.
 */
export async function operatorRoutes(app: FastifyInstance, options: { rt: OrdersRuntime }): Promise<void> {
  const { rt } = options;
  const expected = rt.config.operatorToken ? sha256(rt.config.operatorToken.reveal()) : undefined;

  function assertOperator(request: FastifyRequest): void {
    const given = request.headers['x-operator-token'];
    if (!expected || typeof given !== 'string' || !timingSafeEqual(sha256(given), expected)) {
      request.log.warn({ url: request.url }, 'operator API refused');
      throw new AppError(ErrorCode.OPERATOR_UNAUTHORIZED);
    }
  }
  app.addHook('onRequest', async (request) => assertOperator(request));
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/orders/detail', async (request) => {
    const { orderNo } = parseBody(request, operatorOrderBody);
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

  app.post('/orders/refund', async (request) => {
    const body = parseBody(request, operatorRefundBody);
    return ok(toRefundView(await requestRefund(rt, body)));
  });

  app.post('/orders/ship', async (request) => {
    const body = parseBody(request, operatorShipBody);
    return ok(await shipOrder(rt, body));
  });

  app.post('/payments/flagged', async () => {
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

  app.post('/offline/proofs', async (request) => {
    const body = parseBody(request, operatorProofListBody);
    return ok(await listProofsForOperator(rt, body.status ?? 'pending'));
  });

  app.get<{ Params: { proofId: string } }>('/offline/proofs/:proofId/file', async (request, reply) => {
    if (!/^[0-9a-f-]{36}$/i.test(request.params.proofId)) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND);
    const file = await readProofFile(rt, request.params.proofId);
    return reply
      .header('content-type', file.mimeType)
      .header('content-disposition', 'inline')
      .send(file.data);
  });

  app.post('/offline/confirm', async (request) => {
    const body = parseBody(request, operatorProofConfirmBody);
    return ok(await confirmOfflineProof(rt, body));
  });

  app.post('/offline/reject', async (request) => {
    const body = parseBody(request, operatorProofRejectBody);
    await rejectOfflineProof(rt, body);
    return ok(null);
  });

  app.post('/invoices/issue', async (request) => {
    const body = parseBody(request, operatorInvoiceIssueBody);
    const invoice = await issueInvoice(rt, body.invoiceId);
    return ok({ invoiceId: invoice.id, invoiceNo: invoice.invoiceNo, status: invoice.status });
  });

  app.post('/goods/update', async (request) => {
    const { goodsId, ...patch } = parseBody(request, operatorGoodsUpdateBody);
    const goods = await updateGoods(rt.db, goodsId, patch, rt.now());
    if (!goods) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '商品不存在');
    return ok(toGoodsView(goods));
  });
}
