import type { Database, Kysely, StaffRole } from '@kyfw/db';

/** Staff accounts and their sessions (tables staff_accounts, staff_sessions). */

export async function insertStaff(
  db: Kysely<Database>,
  staff: { id: string; username: string; role: StaffRole; passwordHash: string; totpSecret: string },
): Promise<boolean> {
  const row = await db
    .insertInto('staff_accounts')
    .values({
      id: staff.id,
      username: staff.username,
      role: staff.role,
      password_hash: staff.passwordHash,
      totp_secret: staff.totpSecret,
    })
    .onConflict((oc) => oc.column('username').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export function findStaffByUsername(db: Kysely<Database>, username: string) {
  return db.selectFrom('staff_accounts').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function recordFailedLogin(
  db: Kysely<Database>,
  id: string,
  limit: number,
  lockUntil: Date,
): Promise<{ failed: number; locked: boolean }> {
  const row = await db
    .updateTable('staff_accounts')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('id', '=', id)
    .returning('failed_logins')
    .executeTakeFirstOrThrow();
  if (row.failed_logins < limit) return { failed: row.failed_logins, locked: false };
  await db
    .updateTable('staff_accounts')
    .set({ failed_logins: 0, locked_until: lockUntil })
    .where('id', '=', id)
    .execute();
  return { failed: row.failed_logins, locked: true };
}

/** A successful login: the counter resets and the TOTP step is spent (only if newer: no replay). */
export async function recordSuccessfulLogin(
  db: Kysely<Database>,
  id: string,
  step: number,
): Promise<boolean> {
  const row = await db
    .updateTable('staff_accounts')
    .set({ failed_logins: 0, locked_until: null, last_totp_step: step })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', String(step) as never)]),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertSession(
  db: Kysely<Database>,
  s: { tokenHash: string; staffId: string; createdAt: Date; expiresAt: Date; ip: string | null },
): Promise<void> {
  await db
    .insertInto('staff_sessions')
    .values({
      token_hash: s.tokenHash,
      staff_id: s.staffId,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      ip: s.ip,
    })
    .execute();
}

export function findSession(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('staff_sessions')
    .innerJoin('staff_accounts', 'staff_accounts.id', 'staff_sessions.staff_id')
    .select([
      'staff_sessions.token_hash',
      'staff_sessions.created_at',
      'staff_sessions.expires_at',
      'staff_accounts.id as staffId',
      'staff_accounts.username',
      'staff_accounts.role',
      'staff_accounts.disabled',
    ])
    .where('staff_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, tokenHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('staff_sessions')
    .set({ expires_at: expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash).execute();
}
