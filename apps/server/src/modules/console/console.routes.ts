import fastifyCookie from '@fastify/cookie';
import { consoleApi, type Endpoint, type Envelope, ErrorCode, ok, type StaffRoleName } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import type { OrdersRuntime } from '../orders/orders.runtime.ts';
import { confirmOfflineProof, rejectOfflineProof } from '../orders/payments/offline.service.ts';
import { toRefundView } from '../orders/payments/records.service.ts';
import { requestRefund } from '../orders/payments/refunds.service.ts';
import { type AuditInput, appendAudit, listAudit } from './audit.repo.ts';
import { buildDashboard, orderDetail, orderSearch, proofFile, proofList } from './console.service.ts';
import { ACTION_TEXTS, TEXTS } from './console.texts.ts';
import {
  isSessionToken,
  StaffLoginError,
  type StaffService,
  type StaffSession,
  toStaffView,
} from './staff.service.ts';

export const STAFF_COOKIE = 'kyfw_admin';

const ALL: readonly StaffRoleName[] = ['admin', 'finance', 'fulfilment', 'editor', 'support'];
const ORDERS_READ: readonly StaffRoleName[] = ['admin', 'finance', 'fulfilment', 'support'];
const PAYMENTS_READ: readonly StaffRoleName[] = ['admin', 'finance', 'support'];
const FINANCE: readonly StaffRoleName[] = ['admin', 'finance'];
const ADMIN: readonly StaffRoleName[] = ['admin'];

/** What an audited handler answers: the data and what the audit log records about it. */
export interface Audited<D> {
  data: D;
  message?: string;
  target?: string | null;
  before?: unknown;
  after?: unknown;
  detail?: unknown;
}

type Body<E extends Endpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
type Query<E extends Endpoint> = E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
type DataIn<E extends Endpoint> = E['data'] extends z.ZodType ? z.input<E['data']> : never;

function clientOf(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof ua === 'string' ? ua : null };
}

/** What a staff handler gets: the caller's session and the parsed request. */
export interface StaffInput<E extends Endpoint> {
  session: StaffSession;
  body: Body<E>;
  query: Query<E>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Registers an endpoint for `roles`, audited as `action`; on `scope` (default: the console's). */
export type StaffRoute = <E extends Endpoint>(
  endpoint: E,
  roles: readonly StaffRoleName[],
  action: string,
  handler: (input: StaffInput<E>) => Promise<Audited<DataIn<E>>>,
  scope?: FastifyInstance,
) => void;

/**
 * Console pages of other modules (e.g. the news desk): called with the console's scope and its
 * `staffRoute`, so their endpoints get the same session, role check and audit log.
 */
export type ConsoleExtension = (api: { app: FastifyInstance; staffRoute: StaffRoute }) => Promise<void>;

export interface ConsoleRoutesOptions {
  /** Routes other modules add to the console (ConsoleModuleService.extend). */
  extensions?: readonly ConsoleExtension[];
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
  const audit = (request: FastifyRequest, entry: Omit<AuditInput, 'ip' | 'userAgent' | 'at'>) =>
    appendAudit(db, { ...entry, ...clientOf(request), at: staff.now() });

  const cookieOptions = {
    path: '/kyfw/web/v1/admin',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: options.secureCookies,
  };

  /** The caller's session and role, or a refusal (recorded when it names a staff member or a forged cookie). */
  function requireStaff(roles: readonly StaffRoleName[], action: string) {
    return async (request: FastifyRequest): Promise<StaffSession> => {
      const token = request.cookies[STAFF_COOKIE];
      if (token === undefined) throw new AppError(ErrorCode.UNAUTHORIZED, TEXTS.notLoggedIn);
      let session: StaffSession;
      try {
        if (!isSessionToken(token))
          throw new StaffLoginError(ErrorCode.UNAUTHORIZED, TEXTS.notLoggedIn, 'malformed session', null);
        session = await staff.authenticate(token);
      } catch (error) {
        if (error instanceof StaffLoginError) {
          await audit(request, {
            staffId: error.staffId,
            username: null,
            role: null,
            action,
            outcome: 'refused',
            detail: { reason: error.reason },
          });
        }
        throw error;
      }
      if (!roles.includes(session.role)) {
        await audit(request, {
          staffId: session.staffId,
          username: session.username,
          role: session.role,
          action,
          outcome: 'refused',
          detail: { reason: 'role', allowed: roles },
        });
        throw new AppError(ErrorCode.FORBIDDEN, TEXTS.forbidden(session.role, roles));
      }
      return session;
    };
  }

  /** Registers an endpoint for `roles`; its outcome (ok or failed with the message) is audited as `action`. */
  function staffRoute<E extends Endpoint>(
    endpoint: E,
    roles: readonly StaffRoleName[],
    action: string,
    handler: (input: StaffInput<E>) => Promise<Audited<DataIn<E>>>,
    scope: FastifyInstance = app,
  ): void {
    route(
      scope,
      endpoint,
      async ({ auth, body, query, request, reply }) => {
        const who = { staffId: auth.staffId, username: auth.username, role: auth.role, action };
        try {
          const result = await handler({
            session: auth,
            body: body as Body<E>,
            query: query as Query<E>,
            request,
            reply,
          });
          await audit(request, {
            ...who,
            outcome: 'ok',
            target: result.target ?? null,
            before: result.before,
            after: result.after,
            detail: result.detail,
          });
          if (endpoint.data === 'file') return reply as never;
          return ok(result.data, result.message) as never;
        } catch (error) {
          await audit(request, {
            ...who,
            outcome: 'failed',
            detail: {
              code: isAppError(error) ? error.code : ErrorCode.INTERNAL,
              message: isAppError(error) ? error.message : 'internal',
            },
          });
          throw error;
        }
      },
      { auth: requireStaff(roles, action) },
    );
  }

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

  // --- audit log ----------------------------------------------------------------------------------

  staffRoute(consoleApi.auditList, ADMIN, 'audit.list', async ({ body }) => {
    const { rows, total } = await listAudit(db, body);
    return {
      data: {
        total,
        list: rows.map((r) => ({
          id: String(r.id),
          at: r.at.toISOString(),
          username: r.username,
          role: r.role,
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
      detail: body,
    };
  });

  for (const extend of options.extensions ?? []) await extend({ app, staffRoute });
}

export type { Envelope };
