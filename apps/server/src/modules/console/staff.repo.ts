import type { Database, Kysely, StaffRole } from '@kyfw/db';

/** Staff accounts and their sessions (tables staff_accounts, staff_sessions). */

export async function insertStaff(
  db: Kysely<Database>,
  staff: {
    id: string;
    username: string;
    role: StaffRole;
    passwordHash: string;
    totpSecret: string;
    createdBy: string | null;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('staff_accounts')
    .values({
      id: staff.id,
      username: staff.username,
      role: staff.role,
      password_hash: staff.passwordHash,
      totp_secret: staff.totpSecret,
      created_by: staff.createdBy,
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

/**
 * A successful login: the counter resets and the TOTP step is spent (only if newer: no replay).
 * `step` null: the second factor was a recovery code (spent on its own).
 */
export async function recordSuccessfulLogin(
  db: Kysely<Database>,
  id: string,
  step: number | null,
  at: Date,
): Promise<boolean> {
  let update = db
    .updateTable('staff_accounts')
    .set({ failed_logins: 0, locked_until: null, last_login_at: at })
    .where('id', '=', id);
  if (step !== null) {
    update = update
      .set({ last_totp_step: step })
      .where((eb) =>
        eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', String(step) as never)]),
      );
  }
  const row = await update.returning('id').executeTakeFirst();
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

// --- staff management (migration 0030) ---------------------------------------------------------

/** Every staff account with how many recovery codes it has left, oldest first. */
export function listStaff(db: Kysely<Database>) {
  return db
    .selectFrom('staff_accounts')
    .select((eb) => [
      'staff_accounts.id',
      'staff_accounts.username',
      'staff_accounts.role',
      'staff_accounts.disabled',
      'staff_accounts.locked_until',
      'staff_accounts.created_at',
      'staff_accounts.created_by',
      'staff_accounts.last_login_at',
      eb
        .selectFrom('staff_recovery_codes')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('staff_recovery_codes.staff_id', '=', 'staff_accounts.id')
        .where('staff_recovery_codes.used_at', 'is', null)
        .as('recovery_left'),
    ])
    .orderBy('staff_accounts.created_at')
    .orderBy('staff_accounts.username')
    .execute();
}

export async function updateStaff(
  db: Kysely<Database>,
  id: string,
  change: { role?: StaffRole; disabled?: boolean },
): Promise<void> {
  await db.updateTable('staff_accounts').set(change).where('id', '=', id).execute();
}

/** A new TOTP secret (sealed) and recovery codes replace the old ones; the old step record goes. */
export async function replaceSecondFactor(
  db: Kysely<Database>,
  id: string,
  sealedSecret: string,
  codeDigests: readonly string[],
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('staff_accounts')
      .set({ totp_secret: sealedSecret, last_totp_step: null, failed_logins: 0, locked_until: null })
      .where('id', '=', id)
      .execute();
    await tx.deleteFrom('staff_recovery_codes').where('staff_id', '=', id).execute();
    await insertRecoveryCodes(tx, id, codeDigests);
  });
}

export async function insertRecoveryCodes(
  db: Kysely<Database>,
  staffId: string,
  codeDigests: readonly string[],
): Promise<void> {
  if (codeDigests.length === 0) return;
  await db
    .insertInto('staff_recovery_codes')
    .values(codeDigests.map((code_digest) => ({ staff_id: staffId, code_digest })))
    .execute();
}

/** Spends one unused recovery code; false when there is none with this digest (or it was used). */
export async function useRecoveryCode(
  db: Kysely<Database>,
  staffId: string,
  codeDigest: string,
  at: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: at })
    .where('staff_id', '=', staffId)
    .where('code_digest', '=', codeDigest)
    .where('used_at', 'is', null)
    .returning('staff_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteStaffSessions(db: Kysely<Database>, staffId: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('staff_id', '=', staffId).execute();
}

export async function sealTotpSecret(db: Kysely<Database>, id: string, sealed: string): Promise<void> {
  await db.updateTable('staff_accounts').set({ totp_secret: sealed }).where('id', '=', id).execute();
}

/** A key sealed under STAFF_SECRET_KEY by its rotation (staff_sealed_keys, migration 0046). */
export async function findSealedKey(db: Kysely<Database>, name: 'recovery-mac'): Promise<string | undefined> {
  const row = await db
    .selectFrom('staff_sealed_keys')
    .select('sealed')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.sealed;
}
