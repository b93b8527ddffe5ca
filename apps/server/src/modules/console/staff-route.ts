import { type Endpoint, ErrorCode, ok, type StaffRoleName } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type AuditInput, appendAudit } from '../../audit/index.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { TEXTS } from './console.texts.ts';
import { isSessionToken, StaffLoginError, type StaffService, type StaffSession } from './staff.service.ts';

/** The staff session cookie (path /kyfw/web/v1/admin: console endpoints live under /admin). */
export const STAFF_COOKIE = 'kyfw_admin';

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

export function clientOf(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof ua === 'string' ? ua : null };
}

/**
 * The console's guard and audit for one route plugin: `requireStaff(roles, action)` refuses a
 * caller without a staff session or without one of `roles` (1003/1004, the refusal audited), and
 * `staffRoute(endpoint, roles, action, handler)` registers an endpoint whose outcome — ok or failed
 * with its message — is written to the audit log. Used by the console's own routes and by modules
 * with operator pages (the commission module's fulfilment); register @fastify/cookie first.
 */
export function createStaffRouting(
  app: FastifyInstance,
  { db, staff }: { db: Kysely<Database>; staff: StaffService },
) {
  const audit = (request: FastifyRequest, entry: Omit<AuditInput, 'ip' | 'userAgent' | 'at'>) =>
    appendAudit(db, { ...entry, ...clientOf(request), at: staff.now() });

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

  /**
   * Registers an endpoint for `roles`; its outcome is audited as `action`: ok, refused (a
   * permission refusal, by requireStaff), invalid (the schemas refused the input) or failed (the
   * handler threw; with the message). `unauditedOk`: a
   * successful call is not written (reading the audit log itself: paging it must not add rows);
   * its refusals and failures still are.
   */
  function staffRoute<E extends Endpoint>(
    endpoint: E,
    roles: readonly StaffRoleName[],
    action: string,
    handler: (input: {
      session: StaffSession;
      body: Body<E>;
      query: Query<E>;
      request: FastifyRequest;
      reply: FastifyReply;
    }) => Promise<Audited<DataIn<E>>>,
    options: { unauditedOk?: boolean } = {},
  ): void {
    route(
      app,
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
          if (!options.unauditedOk)
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
      {
        auth: requireStaff(roles, action),
        // A body the schemas refuse (a forged or malformed id, a missing field) is recorded too.
        onInvalid: (error, auth, request) =>
          audit(request, {
            staffId: auth.staffId,
            username: auth.username,
            role: auth.role,
            action,
            outcome: 'invalid',
            detail: {
              reason: 'invalid input',
              code: isAppError(error) ? error.code : ErrorCode.VALIDATION,
              message: isAppError(error) ? error.message : 'invalid',
            },
          }),
      },
    );
  }

  return { audit, requireStaff, staffRoute };
}

export type StaffRouting = ReturnType<typeof createStaffRouting>;
