import fastifyMultipart from '@fastify/multipart';
import { checkApi, ErrorCode, ok, uploadFieldsSchema } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { attachment, extractionHoldMs, extractionSignal, readUpload } from '../../lib/upload.ts';
import { parseWith } from '../../lib/validate.ts';
import type { UploadGuard } from '../accounts/index.ts';
import { optionalUser, requireUser } from '../accounts/index.ts';
import type { CheckRuntime } from './check.runtime.ts';
import {
  deleteCheck,
  findCheckStatus,
  getCheckStatus,
  getReportJson,
  listCheckGoods,
  listChecks,
  openDownload,
  retryCheck,
  startFreeCheck,
  uploadPaper,
  verifyReport,
} from './check.service.ts';
import { TEXTS } from './check.texts.ts';
import { REPORT_HTML_POLICY } from './report/html.ts';
import { reviseRoutes } from './revise/revise.routes.ts';

/** Verification attempts per client and minute: plenty for a person, too few to guess codes. */
const VERIFY_LIMIT = { max: 20, timeWindow: 60_000 };

/** The paper-check API under /kyfw/web/v1/freeCheck (docs/api/check.md). */
export async function checkRoutes(
  app: FastifyInstance,
  options: { rt: CheckRuntime; uploads: UploadGuard },
): Promise<void> {
  const { rt, uploads } = options;
  const maxMb = rt.config.uploadMaxBytes / 1024 / 1024;
  await app.register(fastifyMultipart, {
    limits: { fileSize: rt.config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(
    app,
    checkApi.goodsList,
    async ({ auth }) => {
      return ok(await listCheckGoods(rt, auth?.userId ?? null));
    },
    { auth: optionalUser },
  );

  route(
    app,
    checkApi.uploadFile,
    async ({ auth, request, reply }) => {
      if (!request.isMultipart()) throw new AppError(ErrorCode.CHECK_FILE_MISSING);
      const { fields, file } = await readUpload(request, maxMb);
      const input = parseWith(uploadFieldsSchema, fields);
      if (!file) throw new AppError(ErrorCode.CHECK_FILE_MISSING);
      if (file.bytes.length === 0) throw new AppError(ErrorCode.CHECK_FILE_MISSING, TEXTS.fileEmpty);
      await uploads.assertRoom(auth.userId, file.bytes.length);
      const result = await uploadPaper(rt, {
        userId: auth.userId,
        fileName: file.fileName,
        bytes: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        title: input.title,
        author: input.author,
        goodsId: input.goodsId,
        addToLibrary: input.addToLibrary,
        aigcAddon: input.aigcAddon,
        signal: extractionSignal(request, reply, extractionHoldMs(rt.config.parseTimeoutMs)),
      });
      return ok(result);
    },
    // Each upload is parsed in the extraction pool: per client and minute (UPLOAD_RATE_LIMIT_PER_MINUTE).
    { auth: requireUser, config: { rateLimit: uploads.rateLimit } },
  );

  route(
    app,
    checkApi.payFee,
    async ({ auth, body }) => {
      return ok(await startFreeCheck(rt, auth.userId, body.orderId));
    },
    { auth: requireUser },
  );

  // Payment of a check order: the orders module's service, with the check's progress added to the
  // status (the orders routes leave /freeCheck to this module, see SERVICE_PAY_ROUTES there). An
  // order without a check row is answered exactly as the orders module would.
  route(
    app,
    checkApi.qrPayCode,
    async ({ auth, body }) => {
      return ok(
        await rt.orders.startPayment({
          userId: auth.userId,
          orderId: body.orderId,
          payType: body.payType,
          serviceTypes: ['check'],
        }),
      );
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.orderPayStatus,
    async ({ auth, body }) => {
      const status = await findCheckStatus(rt, auth.userId, body.orderId);
      if (status?.free) {
        return ok({ payStatus: status.checkStatus === 'pending' ? 0 : 1, status: null, ...status });
      }
      const pay = await rt.orders.getPayStatus(auth.userId, body.orderId, {
        serviceTypes: ['check'],
      });
      return ok(status ? { ...pay, ...status } : pay);
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.checkStatus,
    async ({ auth, body }) => {
      return ok(await getCheckStatus(rt, auth.userId, body.orderId));
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.retryCheck,
    async ({ auth, body }) => {
      return ok(await retryCheck(rt, auth.userId, body.orderId));
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.report,
    async ({ auth, body, reply }) => {
      const json = await getReportJson(rt, auth.userId, body.orderId);
      // The stored model goes out as is: no parse + stringify of a large report per request.
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"code":0,"message":"success","data":${json}}`);
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.downloadReport,
    async ({ auth, body, reply }) => {
      const file = await openDownload(rt, auth.userId, body.orderId, body.format);
      const ext = file.fileName.slice(file.fileName.lastIndexOf('.'));
      if (body.format === 'html') reply.header('content-security-policy', REPORT_HTML_POLICY);
      return reply
        .header('content-disposition', attachment(file.fileName, `report-${body.format}${ext}`))
        .header('content-length', String(file.size))
        .type(file.contentType)
        .send(file.stream);
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.orderList,
    async ({ auth, body }) => {
      return ok(await listChecks(rt, auth.userId, body.page, body.pageSize));
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.deleteOrder,
    async ({ auth, body }) => {
      await deleteCheck(rt, auth.userId, body.orderId);
      return ok(null, '删除成功');
    },
    { auth: requireUser },
  );

  route(
    app,
    checkApi.verify,
    async ({ body }) => {
      return ok(await verifyReport(rt, body.reportNo, body.code));
    },
    { config: { rateLimit: VERIFY_LIMIT } },
  );

  // Revise in the report (issue 24): live re-checks of edited paragraphs, versions, the .docx.
  reviseRoutes(app, rt, requireUser);
}
