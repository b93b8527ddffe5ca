import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, SessionLoginMethod } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import { SESSION_TTL_MS } from './accounts.policy.ts';
import { TEXTS } from './accounts.texts.ts';
import { generateSessionToken, sha256Hex } from './secrets.ts';
import { findLiveSession, insertSession } from './sessions.repo.ts';
import type { UserRecord } from './users.repo.ts';

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * Refuses (ACCOUNT_LOCKED, with how to appeal) an account an operator has locked: every login
 * method opens its session through startSession, so none gets past this.
 */
async function assertNotLocked(db: Kysely<Database>, userId: string): Promise<void> {
  const user = await db.selectFrom('users').select('locked_at').where('id', '=', userId).executeTakeFirst();
  if (!user?.locked_at) return;
  const site = await db
    .selectFrom('site_settings')
    .select('contact_phone')
    .where('id', '=', 1)
    .executeTakeFirst();
  throw new AppError(ErrorCode.ACCOUNT_LOCKED, TEXTS.accountLocked(site?.contact_phone ?? ''));
}

/**
 * Opens a session: a fresh random token is returned to hand to the browser once; the database keeps
 * only its SHA-256. Runs on `db`, which may be the caller's transaction.
 * @throws AppError ACCOUNT_LOCKED when an operator has locked the account
 */
export async function startSession(
  db: Kysely<Database>,
  values: { userId: string; method: SessionLoginMethod; now: Date; client: ClientInfo },
): Promise<string> {
  await assertNotLocked(db, values.userId);
  const token = generateSessionToken();
  await insertSession(db, {
    tokenHash: sha256Hex(token),
    userId: values.userId,
    loginMethod: values.method,
    now: values.now,
    expiresAt: new Date(values.now.getTime() + SESSION_TTL_MS),
    userAgent: values.client.userAgent?.slice(0, 500) ?? null,
    clientIp: values.client.ip.slice(0, 64),
  });
  return token;
}

/** The live session of a token (any malformed token is simply unknown, without a query). */
export async function resolveSession(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{ sessionId: string; user: UserRecord } | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  return findLiveSession(db, sha256Hex(token), now);
}
