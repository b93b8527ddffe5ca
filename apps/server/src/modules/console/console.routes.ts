import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import {
  AUDIT_ROLE_TEXTS,
  consoleApi,
  type Envelope,
  ErrorCode,
  jobsAdminApi,
  ok,
  STAFF_ROLE_TEXTS,
  type StaffRoleName,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listAudit } from '../../audit/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { parseWith } from '../../lib/validate.ts';
import type { OrdersRuntime } from '../orders/index.ts';
import {
  attachReversalPdf,
  completeFailedRefundByHand,
  confirmOfflineProof,
  findInvoice,
  findIssueSetting,
  issueInvoice,
  issueInvoiceWithPdf,
  rejectOfflineProof,
  requestRefund,
  retryFailedRefund,
  saveIssueMode,
  shipOrder,
  toRefundView,
} from '../orders/index.ts';
import {
  buildDashboard,
  consoleInvoice,
  deliveryList,
  failedRefundList,
  invoiceList,
  orderDetail,
  orderSearch,
  proofFile,
  proofList,
  reverseInvoice,
} from './console.service.ts';
import { ACTION_TEXTS, TEXTS } from './console.texts.ts';
import { JOB_TEXTS, requeueStuckJob, stuckJobs } from './console-jobs.ts';
import { failedJobs, llmUsage, retryJob, searchUsers } from './console-ops.service.ts';
import { StaffLoginError, type StaffService, toStaffAccountView, toStaffView } from './staff.service.ts';
import { clientOf, createStaffRouting, STAFF_COOKIE } from './staff-route.ts';

export { STAFF_COOKIE };

const ALL: readonly StaffRoleName[] = ['admin', 'finance', 'fulfilment', 'editor', 'support'];
const ORDERS_READ: readonly StaffRoleName[] = ['admin', 'finance', 'fulfilment', 'support'];
const PAYMENTS_READ: readonly StaffRoleName[] = ['admin', 'finance', 'support'];
const FINANCE: readonly StaffRoleName[] = ['admin', 'finance'];
const ADMIN: readonly StaffRoleName[] = ['admin'];
const FULFILMENT: readonly StaffRoleName[] = ['admin', 'fulfilment'];
const ROLES_SHIPPING_READ: readonly StaffRoleName[] = ['admin', 'fulfilment', 'support'];
/** The audit row's role as the log shows it: a staff role, 命令行 or 自动化接口. */
function roleTextOf(role: string | null): string {
  if (role === null) return '';
  return (STAFF_ROLE_TEXTS as Record<string, string>)[role] ?? AUDIT_ROLE_TEXTS[role] ?? role;
}

const viaCli = (detail: unknown) => (detail as { via?: unknown } | null)?.via === 'cli';

function toInvoiceSettingsView(setting: Awaited<ReturnType<typeof findIssueSetting>>) {
  return { ...setting, updatedAt: setting.updatedAt?.toISOString() ?? null };
}

/** The largest invoice PDF an operator may attach. */
const INVOICE_PDF_MAX_BYTES = 10 * 1024 * 1024;

/** The multipart parts of an invoice upload: `invoiceId` and one PDF `file`. */
async function readInvoiceUpload(request: FastifyRequest): Promise<{ invoiceId: string; data: Buffer }> {
  if (!request.isMultipart()) throw new AppError(ErrorCode.VALIDATION, TEXTS.invoiceFileRequired);
  let invoiceId: unknown;
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'invoiceId') invoiceId = part.value;
      } else if (data === undefined) {
        data = await part.toBuffer();
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(ErrorCode.VALIDATION, TEXTS.invoiceFileTooLarge);
    throw new AppError(ErrorCode.VALIDATION, TEXTS.invoiceFileRequired, { cause: error });
  }
  if (!data || data.length === 0) throw new AppError(ErrorCode.VALIDATION, TEXTS.invoiceFileRequired);
  const parsed = parseWith(consoleApi.invoiceGenerate.body, { invoiceId });
  return { invoiceId: parsed.invoiceId, data };
}

export interface ConsoleRoutesOptions {
  /** The orders module's runtime (services.orders.runtime): the queues work on its services. */
  orders: OrdersRuntime;
  db: Kysely<Database>;
  staff: StaffService;
  secureCookies: boolean;
}

/**
 * The console API under /kyfw/web/v1/admin (docs/api/operator.md). Every endpoint except login
 * needs the staff session cookie and one of its roles; every call — and every refusal — is written
 * to the audit log.
 */
export async function consoleRoutes(app: FastifyInstance, options: ConsoleRoutesOptions): Promise<void> {
  const { db, staff } = options;
  await app.register(fastifyCookie);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const rt = (): OrdersRuntime => options.orders;
  const { audit, requireStaff, staffRoute } = createStaffRouting(app, { db, staff });

  const cookieOptions = {
    path: '/kyfw/web/v1/admin',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.secureCookies,
  };

  // --- auth ---------------------------------------------------------------------------------------

  route(
    app,
    consoleApi.login,
    async ({ body, request, reply }) => {
      const client = clientOf(request);
      try {
        const { token, session } = await staff.login({ ...body, ip: client.ip });
        await audit(request, {
          staffId: session.staffId,
          username: session.username,
          role: session.role,
          action: 'auth.login',
          outcome: 'ok',
          detail: session.viaRecoveryCode ? { secondFactor: 'recovery code' } : undefined,
        });
        reply.setCookie(STAFF_COOKIE, token, cookieOptions);
        return ok(toStaffView(session));
      } catch (error) {
        if (error instanceof StaffLoginError) {
          await audit(request, {
            staffId: error.staffId,
            username: body.username.toLowerCase().slice(0, 32),
            role: null,
            action: 'auth.login',
            outcome: 'refused',
            detail: { reason: error.reason },
          });
        }
        throw error;
      }
    },
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
  );

  staffRoute(consoleApi.logout, ALL, 'auth.logout', async ({ session, reply }) => {
    await staff.logout(session.tokenHash);
    reply.clearCookie(STAFF_COOKIE, cookieOptions);
    return { data: null, message: TEXTS.loggedOut };
  });

  route(app, consoleApi.me, async ({ auth }) => ok(toStaffView(auth)), {
    auth: requireStaff(ALL, 'auth.me'),
  });

  // --- dashboard, orders --------------------------------------------------------------------------

  staffRoute(consoleApi.dashboard, ALL, 'dashboard.view', async ({ body }) => ({
    data: await buildDashboard(db, body.days, staff.now()),
  }));

  staffRoute(consoleApi.orderSearch, ORDERS_READ, 'orders.search', async ({ body }) => ({
    data: await orderSearch(rt(), body),
    detail: body,
  }));

  staffRoute(consoleApi.orderDetail, ORDERS_READ, 'orders.detail', async ({ body }) => ({
    data: await orderDetail(rt(), body.orderNo),
    target: body.orderNo,
  }));

  // --- offline payments ---------------------------------------------------------------------------

  staffRoute(consoleApi.proofList, PAYMENTS_READ, 'offline.list', async ({ body }) => ({
    data: await proofList(rt(), body.status ?? 'pending'),
  }));

  staffRoute(consoleApi.proofFile, PAYMENTS_READ, 'offline.file', async ({ query, reply }) => {
    const file = await proofFile(rt(), query.proofId);
    reply.header('content-type', file.mimeType).header('content-disposition', 'inline').send(file.data);
    return { data: undefined as never, target: query.proofId };
  });

  staffRoute(consoleApi.proofConfirm, FINANCE, 'offline.confirm', async ({ body }) => {
    const result = await confirmOfflineProof(rt(), body);
    return {
      data: result,
      message: TEXTS.proofConfirmed,
      target: result.orderNo,
      before: { proof: 'pending' },
      after: { proof: 'confirmed', outcome: result.outcome, note: body.note ?? null },
      detail: { proofId: body.proofId },
    };
  });

  staffRoute(consoleApi.proofReject, FINANCE, 'offline.reject', async ({ body }) => {
    await rejectOfflineProof(rt(), body);
    return {
      data: null,
      message: TEXTS.proofRejected,
      target: body.proofId,
      before: { proof: 'pending' },
      after: { proof: 'rejected', reason: body.reason },
    };
  });

  // --- refunds ------------------------------------------------------------------------------------

  staffRoute(consoleApi.refund, FINANCE, 'refund.create', async ({ body }) => {
    const before = await orderDetail(rt(), body.orderNo);
    const refund = toRefundView(await requestRefund(rt(), body));
    return {
      data: refund,
      message: TEXTS.refundRequested,
      target: body.orderNo,
      before: { status: before.status, refundedFen: before.refundedFen },
      after: {
        refundNo: refund.refundNo,
        amountFen: refund.amountFen,
        status: refund.status,
        reason: body.reason,
      },
    };
  });

  // --- refunds that failed (退款未能自动完成) ---------------------------------------------------------

  staffRoute(consoleApi.failedRefunds, PAYMENTS_READ, 'refund.failedList', async () => ({
    data: await failedRefundList(db),
  }));

  staffRoute(consoleApi.refundRetry, FINANCE, 'refund.retry', async ({ body }) => {
    const record = await retryFailedRefund(rt(), body.refundNo);
    if (record.status === 'failed') {
      throw new AppError(ErrorCode.REFUND_FAILED, TEXTS.refundRetryFailed(record.lastError ?? '平台拒绝'));
    }
    const refund = toRefundView(record);
    return {
      data: refund,
      message: TEXTS.refundRetried(refund.statusText),
      target: body.refundNo,
      before: { status: 'failed' },
      after: { status: refund.status },
    };
  });

  staffRoute(consoleApi.refundMarkDone, FINANCE, 'refund.markDone', async ({ body, session }) => {
    const refund = toRefundView(await completeFailedRefundByHand(rt(), { ...body, by: session.username }));
    return {
      data: refund,
      message: TEXTS.refundMarkedDone,
      target: body.refundNo,
      before: { status: 'failed' },
      after: { status: refund.status, note: body.note },
    };
  });

  // --- invoices (issue: generate or attach the real PDF; 红冲 list) and courier shipping -----------

  staffRoute(consoleApi.invoiceList, PAYMENTS_READ, 'invoice.list', async ({ body }) => ({
    data: await invoiceList(db, body.tab ?? 'requested'),
  }));

  staffRoute(consoleApi.invoiceSettings, PAYMENTS_READ, 'invoice.settings', async () => ({
    data: toInvoiceSettingsView(await findIssueSetting(db)),
  }));

  staffRoute(consoleApi.invoiceSettingsSave, FINANCE, 'invoice.settingsSave', async ({ body, session }) => {
    const before = await findIssueSetting(db);
    await saveIssueMode(db, body.issueMode, session.username, staff.now());
    return {
      data: toInvoiceSettingsView(await findIssueSetting(db)),
      message: TEXTS.invoiceSettingsSaved,
      target: 'invoice_settings',
      before: { issueMode: before.issueMode },
      after: { issueMode: body.issueMode },
    };
  });

  staffRoute(consoleApi.invoiceGenerate, FINANCE, 'invoice.generate', async ({ body }) => {
    const before = await consoleInvoice(db, body.invoiceId);
    await issueInvoice(rt(), body.invoiceId);
    const after = await consoleInvoice(db, body.invoiceId);
    return {
      data: after,
      message: TEXTS.invoiceIssued,
      target: after.invoiceNo,
      before: { status: before.status },
      after: { status: after.status, pdf: 'generated' },
    };
  });

  staffRoute(consoleApi.invoiceReverse, FINANCE, 'invoice.reverse', async ({ body }) => {
    const after = await reverseInvoice(db, body.invoiceId, body.note, staff.now());
    return {
      data: after,
      message: TEXTS.invoiceReversed,
      target: after.invoiceNo,
      before: { reversed: false },
      after: { reversed: true, note: body.note },
    };
  });

  /** Sends an invoice's stored PDF (the invoice's, or the red invoice's of its 红冲) inline. */
  async function sendInvoicePdf(invoiceId: string, red: boolean, reply: FastifyReply) {
    const invoice = await findInvoice(db, invoiceId);
    const key = red ? invoice?.reversalPdfFileKey : invoice?.pdfFileKey;
    if (!invoice || !key) {
      throw red
        ? new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.reversalPdfMissing)
        : new AppError(ErrorCode.INVOICE_NOT_ISSUED);
    }
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', 'inline')
      .send(await rt().files.read(key));
    return { data: undefined as never, target: invoice.invoiceNo };
  }

  staffRoute(consoleApi.invoiceFile, PAYMENTS_READ, 'invoice.file', ({ query, reply }) =>
    sendInvoicePdf(query.invoiceId, false, reply),
  );
  staffRoute(consoleApi.invoiceReversalFile, PAYMENTS_READ, 'invoice.reversalFile', ({ query, reply }) =>
    sendInvoicePdf(query.invoiceId, true, reply),
  );

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { files: 1, fileSize: INVOICE_PDF_MAX_BYTES, fields: 3, fieldSize: 100, parts: 4 },
    });
    const scoped = createStaffRouting(scope, { db, staff });
    scoped.staffRoute(consoleApi.invoiceUpload, FINANCE, 'invoice.upload', async ({ request }) => {
      const { invoiceId, data } = await readInvoiceUpload(request);
      await issueInvoiceWithPdf(rt(), invoiceId, data);
      const after = await consoleInvoice(db, invoiceId);
      return {
        data: after,
        message: TEXTS.invoiceIssued,
        target: after.invoiceNo,
        before: { status: 'requested' },
        after: { status: after.status, pdf: 'uploaded', bytes: data.length },
      };
    });
    // The red invoice's PDF of a recorded 红冲: the same upload checks as the invoice's.
    scoped.staffRoute(
      consoleApi.invoiceReversalUpload,
      FINANCE,
      'invoice.reversalUpload',
      async ({ request }) => {
        const { invoiceId, data } = await readInvoiceUpload(request);
        await attachReversalPdf(rt(), invoiceId, data);
        const after = await consoleInvoice(db, invoiceId);
        return {
          data: after,
          message: TEXTS.reversalPdfAttached,
          target: after.invoiceNo,
          before: { reversalPdf: false },
          after: { reversalPdf: true, bytes: data.length, note: after.reversalNote },
        };
      },
    );
  });

  staffRoute(consoleApi.deliveryList, ROLES_SHIPPING_READ, 'delivery.list', async ({ body }) => ({
    data: await deliveryList(db, body.shipped ?? false),
  }));

  staffRoute(consoleApi.deliveryShip, FULFILMENT, 'delivery.ship', async ({ body }) => {
    const delivery = await shipOrder(rt(), body);
    return {
      data: delivery,
      message: TEXTS.shipped,
      target: body.orderNo,
      before: { shipped: false },
      after: { carrier: delivery?.carrier, trackingNo: delivery?.trackingNo },
    };
  });

  // --- users (read-only), failed jobs, AI usage ---------------------------------------------------

  staffRoute(consoleApi.userSearch, ORDERS_READ, 'users.search', async ({ body }) => ({
    data: await searchUsers(db, body.phone),
    detail: { phone: body.phone },
  }));

  staffRoute(consoleApi.failedJobs, ADMIN, 'jobs.failed', async () => ({ data: await failedJobs(db) }));

  staffRoute(consoleApi.jobRetry, ADMIN, 'jobs.retry', async ({ body }) => {
    const job = await retryJob(db, body.jobId, staff.now());
    return {
      data: job,
      message: TEXTS.jobRetried,
      target: `${job.name}#${job.jobId}`,
      before: { status: 'failed', lastError: job.lastError },
      after: { status: 'queued' },
    };
  });

  staffRoute(jobsAdminApi.stuckJobs, ADMIN, 'jobs.stuck', async () => ({
    data: await stuckJobs(db, staff.now()),
  }));

  staffRoute(jobsAdminApi.stuckRetry, ADMIN, 'jobs.stuckRetry', async ({ body }) => {
    const { job, before } = await requeueStuckJob(db, body.jobId, staff.now());
    return {
      data: job,
      message: JOB_TEXTS.requeued,
      target: `${job.name}#${job.jobId}`,
      before,
      after: { status: 'queued', lockedBy: null },
    };
  });

  staffRoute(consoleApi.llmUsage, FINANCE, 'llm.usage', async ({ body }) => ({
    data: await llmUsage(db, body.days, staff.now()),
  }));

  // --- staff accounts (admin) --------------------------------------------------------------------

  staffRoute(consoleApi.staffList, ADMIN, 'staff.list', async () => ({
    data: (await staff.list()).map(toStaffAccountView),
  }));

  staffRoute(consoleApi.staffCreate, ADMIN, 'staff.create', async ({ body, session }) => {
    const created = await staff.create({ ...body, createdBy: session.username });
    // The audit row names the account and its role, never the password, secret or codes.
    return {
      data: created,
      message: TEXTS.staffCreated,
      target: created.username,
      after: { role: body.role, recoveryCodes: created.recoveryCodes.length },
    };
  });

  staffRoute(consoleApi.staffUpdate, ADMIN, 'staff.update', async ({ body, session }) => {
    if (body.staffId === session.staffId) throw new AppError(ErrorCode.FORBIDDEN, TEXTS.notOnSelf);
    const before = await staff.get(body.staffId);
    const after = await staff.update(body.staffId, { role: body.role, disabled: body.disabled });
    return {
      data: toStaffAccountView(after),
      message: TEXTS.staffUpdated,
      target: after.username,
      before: { role: before.role, disabled: before.disabled },
      after: { role: after.role, disabled: after.disabled },
    };
  });

  staffRoute(consoleApi.staffResetTotp, ADMIN, 'staff.reset2fa', async ({ body }) => {
    const secrets = await staff.resetSecondFactor(body.staffId);
    return {
      data: secrets,
      message: TEXTS.secondFactorReset,
      target: secrets.username,
      after: { recoveryCodes: secrets.recoveryCodes.length },
    };
  });

  // --- audit log ----------------------------------------------------------------------------------

  staffRoute(
    consoleApi.auditList,
    ADMIN,
    'audit.list',
    async ({ body }) => {
      const { rows, total } = await listAudit(db, body);
      return {
        data: {
          total,
          list: rows.map((r) => ({
            id: String(r.id),
            at: r.at.toISOString(),
            // Rows the command line wrote before it named its OS user: 命令行.
            username: r.username ?? (viaCli(r.detail) ? 'cli' : null),
            role: r.role ?? (viaCli(r.detail) ? 'cli' : null),
            roleText: roleTextOf(r.role ?? (viaCli(r.detail) ? 'cli' : null)),
            action: r.action,
            actionText: ACTION_TEXTS[r.action] ?? r.action,
            target: r.target,
            outcome: r.outcome,
            before: r.before,
            after: r.after,
            detail: r.detail,
            ip: r.ip,
          })),
        },
      };
    },
    { unauditedOk: true },
  );
}

export type { Envelope };
