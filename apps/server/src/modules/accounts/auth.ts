import { ErrorCode, MESSAGES } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { resolveSession } from './sessions.service.ts';
import type { UserRecord } from './users.repo.ts';

/** An account as other modules see it: everything but the password hash. */
export type AccountUser = Omit<UserRecord, 'passwordHash'> & { hasPassword: boolean };

export interface AuthenticatedUser {
  userId: string;
  /** The session the request's token belongs to (logout and password change use it). */
  sessionId: string;
  user: AccountUser;
}

export interface AuthService {
  /** The clock of time rules (session, code and QR expiry); tests inject one through buildApp. */
  now: () => Date;
  resolve(request: FastifyRequest): Promise<AuthenticatedUser | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Session lookup for every module; see requireUser / optionalUser. */
    accountsAuth: AuthService;
  }
}

export function toAccountUser(user: UserRecord): AccountUser {
  const { passwordHash, ...rest } = user;
  return { ...rest, hasPassword: passwordHash !== null };
}

export function createAuthService(deps: { db: Kysely<Database>; now?: () => Date }): AuthService {
  const now = deps.now ?? (() => new Date());
  // One lookup per request however often a handler asks.
  const cache = new WeakMap<FastifyRequest, Promise<AuthenticatedUser | null>>();
  return {
    now,
    resolve(request) {
      let pending = cache.get(request);
      if (!pending) {
        pending = resolveSession(deps.db, request.token, now()).then((found) =>
          found
            ? { userId: found.user.id, sessionId: found.sessionId, user: toAccountUser(found.user) }
            : null,
        );
        cache.set(request, pending);
      }
      return pending;
    },
  };
}

/**
 * Makes `requireUser` / `optionalUser` work in every module: decorates the root instance, whose
 * decorations all module scopes inherit. buildApp calls this before registering the modules.
 */
export function registerAuth(app: FastifyInstance, deps: { db: Kysely<Database>; now?: () => Date }): void {
  if (!app.hasDecorator('accountsAuth')) app.decorate('accountsAuth', createAuthService(deps));
}

function authOf(request: FastifyRequest): AuthService {
  const auth = request.server.accountsAuth;
  if (!auth) throw new Error('accounts auth is not registered: call registerAuth(app) in buildApp');
  return auth;
}

/**
 * The logged-in account of the request (its `token` header), or AppError UNAUTHORIZED 请先登录 when
 * the token is missing, unknown, expired or revoked, or the account is closed or deleted.
 */
export async function requireUser(request: FastifyRequest): Promise<AuthenticatedUser> {
  const found = await authOf(request).resolve(request);
  if (!found) throw new AppError(ErrorCode.UNAUTHORIZED, MESSAGES.LOGIN_REQUIRED);
  return found;
}

/** Like requireUser, but null for an anonymous visitor (a bad token counts as none). */
export function optionalUser(request: FastifyRequest): Promise<AuthenticatedUser | null> {
  return authOf(request).resolve(request);
}
