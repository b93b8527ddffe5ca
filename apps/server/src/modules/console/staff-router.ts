import fastifyCookie from '@fastify/cookie';
import { type Endpoint, ErrorCode, ok, type StaffRoleName } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { type AuditInput, appendAudit } from './audit.repo.ts';
import { TEXTS } from './console.texts.ts';
import { isSessionToken, StaffLoginError, type StaffService, type StaffSession } from './staff.service.ts';

export const STAFF_COOKIE = 'kyfw_admin';

/** Who may call what: the role sets the console's endpoints name (docs/api/operator.md, Roles). */
export const ROLES = {
  all: ['admin', 'finance', 'fulfilment', 'editor', 'support'],
  ordersRead: ['admin', 'finance', 'fulfilment', 'support'],
  paymentsRead: ['admin', 'finance', 'support'],
  finance: ['admin', 'finance'],
  fulfilment: ['admin', 'fulfilment'],
  editor: ['admin', 'editor'],
  admin: ['admin'],
} as const satisfies Record<string, readonly StaffRoleName[]>;

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

export interface StaffHandlerInput<E extends Endpoint> {
  session: StaffSession;
  body: Body<E>;
  query: Query<E>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export function clientOf(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof ua === 'string' ? ua : null };
}

/** The console's way to declare endpoints; other modules get one through `services.console.routes`. */
export interface StaffRouter {
  app: FastifyInstance;
  /**
   * Registers `endpoint` for `roles` (others are refused with 1004 and the refusal is audited); the
   * handler's outcome — ok with its target/before/after, or failed with the error — is one audit
   * row named `action`. A file endpoint's handler sends the reply itself.
   */
  staffRoute<E extends Endpoint>(
    endpoint: E,
    roles: readonly StaffRoleName[],
    action: string,
    handler: (input: StaffHandlerInput<E>) => Promise<Audited<DataIn<E>>>,
  ): void;
  /** The caller's session with one of `roles`, or the refusal (audited as `action`). */
  requireStaff(
    roles: readonly StaffRoleName[],
    action: string,
  ): (request: FastifyRequest) => Promise<StaffSession>;
  /** One audit row with this request's IP and user agent. */
  audit(request: FastifyRequest, entry: Omit<AuditInput, 'ip' | 'userAgent' | 'at'>): Promise<void>;
}

/**
 * Prepares `app` (an encapsulated plugin scope) for console endpoints: cookie parsing, no caching,
 * and the router whose every endpoint checks the staff session and role and writes the audit log.
 */
export async function createStaffRouter(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; staff: StaffService },
): Promise<StaffRouter> {
  const { db, staff } = deps;
  await app.register(fastifyCookie);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const audit: StaffRouter['audit'] = (request, entry) =>
    appendAudit(db, { ...entry, ...clientOf(request), at: staff.now() });

  const requireStaff: StaffRouter['requireStaff'] = (roles, action) => async (request) => {
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

  const staffRoute: StaffRouter['staffRoute'] = (endpoint, roles, action, handler) => {
    route(
      app,
      endpoint,
      async ({ auth, body, query, request, reply }) => {
        const who = { staffId: auth.staffId, username: auth.username, role: auth.role, action };
        try {
          const result = await handler({ session: auth, body, query, request, reply } as never);
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
  };

  return { app, staffRoute, requireStaff, audit };
}
