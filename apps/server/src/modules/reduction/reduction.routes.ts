import fastifyMultipart from '@fastify/multipart';
import { ErrorCode, ok, REDUCTION_RULES, reductionApi, reductionFileFieldsSchema } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { type QueuedView, withQueuePlace } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { editDocxInPlace } from '../../lib/docx/edit-in-place.ts';
import { route } from '../../lib/route.ts';
import { attachment, extractionHoldMs, extractionSignal, readUpload } from '../../lib/upload.ts';
import { parseWith } from '../../lib/validate.ts';
import type { UploadGuard } from '../accounts/index.ts';
import { requireUser } from '../accounts/index.ts';
import { extractUpload } from '../check/check.service.ts';
import { renderReductionDocx } from './reduction.docx.ts';
import { reductionFromReport } from './reduction.report.ts';
import {
  createReduction,
  deleteReduction,
  goodsPrice,
  listReductions,
  ownReduction,
  type ReductionRuntime,
  reductionViewOf,
  requireDone,
  resultViewOf,
  rewrittenItems,
} from './reduction.service.ts';
import { TEXTS } from './reduction.texts.ts';

/**
 * /weightReduction/* (spec §7; docs/api/reduction.md). Every route needs a login.
 * /freeCheckQrPayCode and /orderPayStatus of this prefix are the orders module's (SERVICE_PAY_ROUTES).
 */
export async function reductionRoutes(
  app: FastifyInstance,
  options: { rt: ReductionRuntime; uploads: UploadGuard },
): Promise<void> {
  const { rt, uploads } = options;
  const { now } = rt;
  const db = () => rt.db;
  // A paid reduction whose job waits for a worker says 排队中 and its place, not a percentage.
  const queued = <V extends QueuedView>(v: V) =>
    withQueuePlace(db(), v, v.status === 'rewriting' && v.orderId ? `reduction:${v.orderId}` : null);
  const maxBytes = rt.check.config.uploadMaxBytes;
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  route(
    app,
    reductionApi.getGoodsPrice,
    async ({ body }) => {
      return ok(await goodsPrice(rt, 'reduction', body.chars));
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.getGoodsPriceAI,
    async ({ body }) => {
      return ok(await goodsPrice(rt, 'aigc_reduction', body.chars));
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.submitContent,
    async ({ auth, body }) => {
      return ok(
        await createReduction(
          rt,
          { userId: auth.userId, kind: body.kind, source: 'text', title: body.title, text: body.text },
          now(),
        ),
      );
    },
    { auth: requireUser },
  );

  // An uploaded document, read by the check's extraction (.docx/.doc/.pdf/.txt; a scanned PDF is
  // refused). A .docx is kept and edited in place on /download.
  route(
    app,
    reductionApi.submitFile,
    async ({ auth, request, reply }) => {
      const upload = await readUpload(request, maxBytes / 1024 / 1024);
      const fields = parseWith(reductionFileFieldsSchema, upload.fields);
      if (!upload.file || upload.file.bytes.length === 0)
        throw new AppError(ErrorCode.CHECK_FILE_MISSING, TEXTS.fileMissing);
      const signal = extractionSignal(request, reply, extractionHoldMs(rt.check.config.parseTimeoutMs));
      const isDocx = /\.docx$/i.test(upload.file.fileName);
      // Only a .docx is kept (edited in place on download): only it takes room in the account's quota.
      if (isDocx) await uploads.assertRoom(auth.userId, upload.file.bytes.length);
      const document = await extractUpload(rt.check, upload.file.bytes, upload.file.fileName, signal);
      const fileKey = isDocx ? `reduction/${crypto.randomUUID()}.docx` : undefined;
      const created = await createReduction(
        rt,
        {
          userId: auth.userId,
          kind: fields.kind,
          source: 'file',
          // A file name can be longer than a title may be: the title is its first 200 characters.
          title:
            fields.title ||
            [...upload.file.fileName.replace(/\.[^.]+$/, '')].slice(0, REDUCTION_RULES.title.max).join(''),
          text: document.text,
          fileName: upload.file.fileName,
          fileKey,
          fileBytes: upload.file.bytes.length,
        },
        now(),
      );
      if (fileKey) await rt.check.storage.put(fileKey, upload.file.bytes);
      return ok(created);
    },
    { auth: requireUser, config: { rateLimit: uploads.rateLimit } },
  );

  // A check report -> a reduction of its flagged paragraphs. /order/trans is the same turn from
  // 我的订单 (a check order becomes a 降重 order; the check order itself is left as it is).
  for (const turn of [reductionApi.submitReport, reductionApi.orderTrans]) {
    route(
      app,
      turn,
      async ({ auth, body }) =>
        ok(
          await reductionFromReport(
            rt,
            { userId: auth.userId, kind: body.kind, checkOrderId: body.orderId },
            now(),
          ),
        ),
      { auth: requireUser },
    );
  }

  // Pay a reduction by its id (the QR of WeChat Pay / Alipay sandbox or real), as /freeCheckQrPayCode does by order id.
  route(
    app,
    reductionApi.orderPayment,
    async ({ auth, body }) => {
      const r = await ownReduction(db(), auth.userId, body.reductionId);
      return ok(
        await rt.orders.startPayment({
          userId: auth.userId,
          orderId: r.orderId!,
          payType: body.payType,
          serviceTypes: [r.kind],
        }),
      );
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.getMyWeightReductionOrder,
    async ({ auth }) => {
      return ok({ list: await Promise.all((await listReductions(rt, auth.userId)).map(queued)) });
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.query,
    async ({ auth, body }) => {
      return ok(
        await queued(await reductionViewOf(rt, await ownReduction(db(), auth.userId, body.reductionId))),
      );
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.txtWeightResult,
    async ({ auth, body }) => {
      const r = await ownReduction(db(), auth.userId, body.reductionId);
      await requireDone(rt, r);
      return ok(await resultViewOf(rt, r));
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.download,
    async ({ auth, body, reply }) => {
      const r = await ownReduction(db(), auth.userId, body.reductionId);
      await requireDone(rt, r);
      let bytes: Uint8Array | undefined;
      let formatLost = false;
      if (r.fileKey) {
        const original = await rt.check.storage.get(r.fileKey);
        bytes = editDocxInPlace(original, rewrittenItems(r));
        formatLost = bytes === undefined;
      }
      bytes ??= await renderReductionDocx(r, { formatLost });
      const name = `${r.title.replace(/[\\/:*?"<>|]/g, '').slice(0, 60)}-${r.kind === 'reduction' ? '降重' : '降AIGC'}.docx`;
      return reply
        .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
        .header('content-disposition', attachment(name, 'reduction.docx'))
        .send(bytes);
    },
    { auth: requireUser },
  );

  route(
    app,
    reductionApi.delReport,
    async ({ auth, body }) => {
      await deleteReduction(rt, auth.userId, body.reductionId, now());
      return ok(null);
    },
    { auth: requireUser },
  );
}
