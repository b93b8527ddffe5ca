import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import {
  COMMISSION_FILE_RULES,
  commissionApi,
  consoleCommissionApi,
  ErrorCode,
  idSchema,
  jobsAdminApi,
  ok,
  type StaffRoleName,
} from '@kyfw/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { sendCsv } from '../../lib/csv.ts';
import { route } from '../../lib/route.ts';
import { attachment, extractionHoldMs, extractionSignal, readUpload } from '../../lib/upload.ts';
import { parseWith } from '../../lib/validate.ts';
import type { UploadGuard } from '../accounts/index.ts';
import { requireUser } from '../accounts/index.ts';
import type { ConsoleModuleService } from '../console/index.ts';
import { uploadAttachment } from './commission.files.ts';
import {
  complete,
  consoleDetail,
  consoleExport,
  consoleList,
  openAnyFile,
  quote,
  uploadReport,
} from './commission.fulfilment.ts';
import { resendNotice, stuckNotices } from './commission.notices.ts';
import { estimate, serviceStates } from './commission.pricing.ts';
import type { CommissionRuntime } from './commission.runtime.ts';
import { cancelOwn, detailOwn, listOwn, openOwnFile, submit } from './commission.service.ts';
import { ACTIONS, TEXTS } from './commission.texts.ts';

/** Who fulfils commissions in the console. */
const FULFILMENT: readonly StaffRoleName[] = ['admin', 'fulfilment'];
const ADMIN: readonly StaffRoleName[] = ['admin'];

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.txt': 'text/plain; charset=utf-8',
};

function sendFile(reply: FastifyReply, file: { fileName: string; bytes: Buffer }) {
  const ext = /\.[^.]+$/.exec(file.fileName)?.[0]?.toLowerCase() ?? '';
  return reply
    .type(MIME[ext] ?? 'application/octet-stream')
    .header('content-disposition', attachment(file.fileName, `report${ext}`))
    .send(file.bytes);
}

async function readDocument(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.missing);
  const upload = await readUpload(request, COMMISSION_FILE_RULES.maxBytes / 1024 / 1024);
  if (!upload.file || upload.file.bytes.length === 0)
    throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.missing);
  return { fields: upload.fields, file: { bytes: upload.file.bytes, fileName: upload.file.fileName } };
}

const reportFields = z.object({ commissionId: idSchema('委托') });

/**
 * The commissioned services (docs/api/commission.md): the client's endpoints under /commission
 * (login required; another user's commission is "not found"), and the operators' under
 * /admin/commission (staff session with role fulfilment or admin; every call audited).
 */
export async function commissionRoutes(
  app: FastifyInstance,
  options: { rt: CommissionRuntime; console: ConsoleModuleService; uploads: UploadGuard },
): Promise<void> {
  const { rt, uploads } = options;
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, {
    limits: { fileSize: COMMISSION_FILE_RULES.maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  // --- the client -----------------------------------------------------------------------------------

  // Prices are public (the goods are): the forms show the estimate before logging in.
  route(app, commissionApi.estimate, async ({ body }) => ok(await estimate(rt, body)));
  route(app, commissionApi.services, async () => ok(await serviceStates(rt)));

  route(
    app,
    commissionApi.uploadFile,
    async ({ auth, request, reply }) => {
      const { file } = await readDocument(request);
      await uploads.assertRoom(auth.userId, file.bytes.length);
      const signal = extractionSignal(request, reply, extractionHoldMs(rt.check.config.parseTimeoutMs));
      return ok(await uploadAttachment(rt, auth.userId, file, signal));
    },
    { auth: requireUser, config: { rateLimit: uploads.rateLimit } },
  );

  route(app, commissionApi.submit, async ({ auth, body }) => ok(await submit(rt, auth.userId, body)), {
    auth: requireUser,
  });

  route(app, commissionApi.list, async ({ auth, body }) => ok(await listOwn(rt, auth.userId, body)), {
    auth: requireUser,
  });

  route(
    app,
    commissionApi.detail,
    async ({ auth, body }) => ok(await detailOwn(rt, auth.userId, body.commissionId)),
    { auth: requireUser },
  );

  route(
    app,
    commissionApi.cancel,
    async ({ auth, body }) => ok(await cancelOwn(rt, auth.userId, body.commissionId)),
    { auth: requireUser },
  );

  route(
    app,
    commissionApi.download,
    async ({ auth, body, reply }) =>
      sendFile(reply, await openOwnFile(rt, auth.userId, body.commissionId, body.fileId)),
    { auth: requireUser },
  );

  // --- the operators ------------------------------------------------------------------------------

  const { staffRoute } = options.console.staffRouting(app);

  staffRoute(consoleCommissionApi.list, FULFILMENT, ACTIONS.list, async ({ body }) => ({
    data: await consoleList(rt, body),
    detail: body,
  }));

  staffRoute(consoleCommissionApi.export, FULFILMENT, ACTIONS.export, async ({ body, reply }) => {
    const { csv, rows, total } = await consoleExport(rt, body);
    sendCsv(reply, csv, `委托-${rt.now().toISOString().slice(0, 10)}.csv`, 'commissions.csv');
    return { data: undefined as never, detail: { ...body, rows, total } };
  });

  staffRoute(consoleCommissionApi.detail, FULFILMENT, ACTIONS.detail, async ({ body }) => ({
    data: await consoleDetail(rt, body.commissionId),
    target: body.commissionId,
  }));

  staffRoute(consoleCommissionApi.quote, FULFILMENT, ACTIONS.quote, async ({ body }) => {
    const before = await consoleDetail(rt, body.commissionId);
    const after = await quote(rt, body.commissionId, body);
    return {
      data: after,
      message: '已报价，等待用户支付',
      target: after.commissionNo,
      before: { status: before.status, amountFen: before.amountFen },
      after: { status: after.status, amountFen: after.amountFen, orderNo: after.orderNo, note: body.note },
    };
  });

  staffRoute(
    consoleCommissionApi.uploadReport,
    FULFILMENT,
    ACTIONS.uploadReport,
    async ({ request, session }) => {
      const { fields, file } = await readDocument(request);
      const { commissionId } = parseWith(reportFields, fields);
      const after = await uploadReport(rt, commissionId, session.staffId, file);
      return {
        data: after,
        message: '报告已上传',
        target: after.commissionNo,
        detail: { fileName: file.fileName, bytes: file.bytes.length },
      };
    },
  );

  staffRoute(consoleCommissionApi.complete, FULFILMENT, ACTIONS.complete, async ({ body }) => {
    const after = await complete(rt, body.commissionId);
    return {
      data: after,
      message: '已标记完成，已通知用户',
      target: after.commissionNo,
      before: { status: 'processing' },
      after: { status: after.status, reports: after.reports.length },
    };
  });

  // The 任务 screen's 邮件通知 tab (admin, beside the stuck jobs): notices that did not go out.
  staffRoute(jobsAdminApi.stuckNotices, ADMIN, ACTIONS.stuckNotices, async () => ({
    data: await stuckNotices(rt.db, rt.now()),
  }));

  staffRoute(jobsAdminApi.noticeResend, ADMIN, ACTIONS.noticeResend, async ({ body }) => {
    await resendNotice(rt.db, body.noticeId, rt.now());
    return { data: { noticeId: body.noticeId }, message: TEXTS.mail.resent, target: body.noticeId };
  });

  staffRoute(consoleCommissionApi.download, FULFILMENT, ACTIONS.download, async ({ body, reply }) => {
    sendFile(reply, await openAnyFile(rt, body.commissionId, body.fileId));
    return { data: undefined as never, target: body.fileId };
  });
}
