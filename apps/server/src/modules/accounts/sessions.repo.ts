import type { Database, Kysely, SessionLoginMethod, SessionRevokeReason } from '@kyfw/db';
import { toUserRecord, type UserRecord } from './users.repo.ts';

export interface SessionRecord {
  id: string;
  userId: string;
  loginMethod: SessionLoginMethod;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokeReason: SessionRevokeReason | null;
  userAgent: string | null;
  clientIp: string | null;
}

export async function insertSession(
  db: Kysely<Database>,
  values: {
    tokenHash: string;
    userId: string;
    loginMethod: SessionLoginMethod;
    now: Date;
    expiresAt: Date;
    userAgent: string | null;
    clientIp: string | null;
  },
): Promise<string> {
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      login_method: values.loginMethod,
      created_at: values.now,
      expires_at: values.expiresAt,
      user_agent: values.userAgent,
      client_ip: values.clientIp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The live session of a token hash and its account: not revoked, not expired, account active. */
export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<{ sessionId: string; user: UserRecord } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.id as session_id')
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('users.status', '=', 'active')
    .where('users.locked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, ...user } = row;
  return { sessionId: session_id, user: toUserRecord(user) };
}

export async function revokeSession(
  db: Kysely<Database>,
  sessionId: string,
  reason: SessionRevokeReason,
  now: Date,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, revoke_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of an account, except `exceptSessionId` when given; returns how many. */
export async function revokeUserSessions(
  db: Kysely<Database>,
  userId: string,
  reason: SessionRevokeReason,
  now: Date,
  exceptSessionId?: string,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now, revoke_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptSessionId) query = query.where('id', '<>', exceptSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deleted accounts keep no device data: user agent and IP of their sessions are cleared. */
export async function clearSessionDeviceData(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ user_agent: null, client_ip: null })
    .where('user_id', '=', userId)
    .execute();
}

export async function listUserSessions(db: Kysely<Database>, userId: string): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    loginMethod: r.login_method,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    revokeReason: r.revoke_reason,
    userAgent: r.user_agent,
    clientIp: r.client_ip,
  }));
}

/** Housekeeping: sessions that ended (expired or revoked) before `before`. */
export async function deleteEndedSessions(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
