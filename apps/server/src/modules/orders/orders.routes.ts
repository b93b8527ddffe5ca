import fastifyMultipart from '@fastify/multipart';
import { ErrorCode, ok, orderIdBody, ordersApi, payEndpointsOf } from '@kyfw/contracts';
import type { ServiceType } from '@kyfw/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { attachment } from '../../lib/upload.ts';
import { parseWith } from '../../lib/validate.ts';
import { requireUser, type UploadGuard } from '../accounts/index.ts';
import { findDelivery } from './addresses/addresses.repo.ts';
import {
  listAddresses,
  makeDefaultAddress,
  removeAddress,
  saveAddress,
  setOrderDelivery,
  toDeliveryView,
} from './addresses/addresses.service.ts';
import { getDivisionTree } from './addresses/divisions.ts';
import { listGoods, toGoodsView } from './goods.service.ts';
import { findInvoiceOfOrder } from './invoices/invoices.repo.ts';
import {
  createInvoice,
  downloadInvoice,
  listInvoiceable,
  listInvoices,
} from './invoices/invoices.service.ts';
import { cancelOrder } from './order-lifecycle.service.ts';
import type { OrdersRuntime } from './orders.runtime.ts';
import { deleteOrderForUser, getOrderForUser, getOrderHistory, listOrdersForUser } from './orders.service.ts';
import { PAY_CHANNEL_TEXTS, TEXTS } from './orders.texts.ts';
import { money, paymentStatusTextOf, toOrderView } from './orders.view.ts';
import { getOfflineInfo, submitOfflineProof, toProofView } from './payments/offline.service.ts';
import { listOrderPayments } from './payments/payments.repo.ts';
import { listOrderProofs } from './payments/proofs.repo.ts';
import { listPaymentRecords, toRefundView } from './payments/records.service.ts';
import { listOrderRefunds } from './payments/refunds.repo.ts';
import { startPayment } from './payments/start.service.ts';
import { getPayStatus } from './payments/status.service.ts';

/**
 * Each paid service's pay endpoints of spec §7, thin calls into the payment service. A service
 * module that wants to own one of these paths (e.g. the check service extending orderPayStatus with
 * progress) removes its entry here and calls services.orders.api.startPayment / getPayStatus in its
 * own route. Any service's order can also be paid through /order/pay and /order/payStatus.
 */
export const SERVICE_PAY_ROUTES: readonly { prefix: string; serviceTypes: readonly ServiceType[] }[] = [
  // /freeCheck is owned by the check module (check.routes.ts): it adds the check's progress.
  { prefix: '/weightReduction', serviceTypes: ['reduction', 'aigc_reduction'] },
  { prefix: '/aiWriting', serviceTypes: ['ai_writing'] },
];

/** The user-facing orders API under /kyfw/web/v1 (docs/api/orders.md). Every route needs a login. */
export async function ordersRoutes(
  app: FastifyInstance,
  options: { rt: OrdersRuntime; uploads: UploadGuard },
): Promise<void> {
  const { rt, uploads } = options;
  const { db } = rt;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  // --- catalogue ---------------------------------------------------------------------------------
  route(app, ordersApi.goodsList, async ({ body }) => {
    return ok((await listGoods(db, body.serviceType)).map(toGoodsView));
  });

  // --- each service's pay endpoints ------------------------------------------------------------
  for (const { prefix, serviceTypes } of SERVICE_PAY_ROUTES) {
    const pay = payEndpointsOf(prefix);
    route(
      app,
      pay.qrPayCode,
      async ({ auth, body }) => {
        const result = await startPayment(rt, {
          userId: auth.userId,
          orderId: body.orderId,
          payType: body.payType,
          serviceTypes,
        });
        return ok(result, TEXTS.payQrCreated);
      },
      { auth: requireUser },
    );
    route(
      app,
      pay.payStatus,
      async ({ auth, body }) => ok(await getPayStatus(rt, auth.userId, body.orderId, { serviceTypes })),
      { auth: requireUser },
    );
  }

  // --- generic order API (account area) ----------------------------------------------------------
  // Pay again from My orders, whatever the service: the same answers as the services' endpoints.
  route(
    app,
    ordersApi.orderPay,
    async ({ auth, body }) => {
      const result = await startPayment(rt, {
        userId: auth.userId,
        orderId: body.orderId,
        payType: body.payType,
      });
      return ok(result, TEXTS.payQrCreated);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderPayStatus,
    async ({ auth, body }) => {
      return ok(await getPayStatus(rt, auth.userId, body.orderId));
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderList,
    async ({ auth, body }) => {
      const { list, total } = await listOrdersForUser(db, auth.userId, {
        serviceTypes: body.serviceType,
        page: body.page,
        pageSize: body.pageSize,
      });
      const now = rt.now();
      return ok({ list: list.map((o) => toOrderView(o, now)), total });
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderDetail,
    async ({ auth, body }) => {
      const order = await getOrderForUser(db, auth.userId, body.orderId);
      const [history, payments, refunds, proofs, delivery, invoice] = await Promise.all([
        getOrderHistory(db, order.id),
        listOrderPayments(db, order.id),
        listOrderRefunds(db, order.id),
        listOrderProofs(db, order.id),
        findDelivery(db, order.id),
        findInvoiceOfOrder(db, order.id),
      ]);
      return ok({
        ...toOrderView(order, rt.now()),
        history,
        payments: payments.map((p) => ({
          time: p.paidAt.toISOString(),
          method: p.channel,
          methodText: PAY_CHANNEL_TEXTS[p.channel],
          ...money(p.amountFen),
          status: p.status,
          statusText: paymentStatusTextOf(p),
        })),
        refunds: refunds.map(toRefundView),
        offlineProofs: proofs.map(toProofView),
        delivery: toDeliveryView(delivery),
        invoice: invoice
          ? { invoiceId: invoice.id, invoiceNo: invoice.invoice_no, status: invoice.status }
          : null,
      });
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderCancel,
    async ({ auth, body }) => {
      await cancelOrder(rt, auth.userId, body.orderId);
      return ok(null, TEXTS.orderCancelled);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderDelete,
    async ({ auth, body }) => {
      await deleteOrderForUser(rt, auth.userId, body.orderId);
      return ok(null, TEXTS.orderDeleted);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.orderDelivery,
    async ({ auth, body }) => {
      return ok(await setOrderDelivery(rt, auth.userId, body.orderId, body.addressId), TEXTS.deliverySaved);
    },
    { auth: requireUser },
  );

  // --- payment records and offline payment ------------------------------------------------------
  route(
    app,
    ordersApi.paymentRecords,
    async ({ auth, body }) => {
      return ok(await listPaymentRecords(db, auth.userId, body.page, body.pageSize));
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.offlineInfo,
    async () => {
      return ok(getOfflineInfo(rt));
    },
    { auth: requireUser },
  );

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { files: 1, fileSize: rt.config.proofMaxBytes, fields: 5, fieldSize: 200, parts: 6 },
    });
    route(
      scope,
      ordersApi.offlineProof,
      async ({ auth, request }) => {
        if (!request.isMultipart())
          throw new AppError(ErrorCode.OFFLINE_PROOF_INVALID, TEXTS.offlineProofRequired);
        const { orderId, data, truncated } = await readProofUpload(request);
        const { orderId: parsedOrderId } = parseWith(orderIdBody, { orderId });
        if (!truncated) await uploads.assertRoom(auth.userId, data.length);
        const proof = await submitOfflineProof(rt, {
          userId: auth.userId,
          orderId: parsedOrderId,
          data,
          truncated,
        });
        return ok(toProofView(proof), TEXTS.offlineProofReceived);
      },
      { auth: requireUser, config: { rateLimit: uploads.rateLimit } },
    );
  });

  // --- invoices ----------------------------------------------------------------------------------
  route(
    app,
    ordersApi.invoiceOrders,
    async ({ auth }) => {
      return ok(await listInvoiceable(rt, auth.userId));
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.invoiceCreate,
    async ({ auth, body }) => {
      const invoice = await createInvoice(rt, auth.userId, {
        orderIds: body.orderIds,
        titleType: body.titleType,
        title: body.title,
        taxpayerId: body.taxpayerId ?? null,
        email: body.email,
      });
      return ok(invoice, invoice.status === 'issued' ? TEXTS.invoiceIssued : TEXTS.invoiceRequested);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.invoiceList,
    async ({ auth, body }) => {
      return ok(await listInvoices(rt, auth.userId, body.page, body.pageSize));
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.invoiceDownload,
    async ({ auth, body, reply }) => {
      const file = await downloadInvoice(rt, auth.userId, body.invoiceId, body.red === true);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(file.fileName, 'invoice.pdf'))
        .send(file.data);
    },
    { auth: requireUser, alsoGet: true },
  );

  // --- addresses ---------------------------------------------------------------------------------
  route(app, ordersApi.cityList, async () => ok(getDivisionTree()), { alsoGet: true });

  route(
    app,
    ordersApi.addressList,
    async ({ auth }) => {
      return ok(await listAddresses(rt, auth.userId));
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.addressSave,
    async ({ auth, body }) => {
      return ok(await saveAddress(rt, auth.userId, body), TEXTS.addressSaved);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.addressDelete,
    async ({ auth, body }) => {
      await removeAddress(rt, auth.userId, body.id);
      return ok(null, TEXTS.addressDeleted);
    },
    { auth: requireUser },
  );

  route(
    app,
    ordersApi.addressSetDefault,
    async ({ auth, body }) => {
      await makeDefaultAddress(rt, auth.userId, body.id);
      return ok(null, TEXTS.addressSaved);
    },
    { auth: requireUser },
  );
}

/** Reads the multipart parts: the `orderId` field and one `file`; the file stops at the size cap. */
async function readProofUpload(
  request: FastifyRequest,
): Promise<{ orderId: unknown; data: Buffer; truncated: boolean }> {
  let orderId: unknown;
  let data: Buffer | undefined;
  let truncated = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'orderId') orderId = part.value;
      } else if (data === undefined) {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        data = Buffer.concat(chunks);
        truncated = part.file.truncated;
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError(ErrorCode.OFFLINE_PROOF_TOO_LARGE);
    }
    throw new AppError(ErrorCode.OFFLINE_PROOF_INVALID, TEXTS.offlineProofRequired, { cause: error });
  }
  if (!data) throw new AppError(ErrorCode.OFFLINE_PROOF_INVALID, TEXTS.offlineProofRequired);
  return { orderId, data, truncated };
}
