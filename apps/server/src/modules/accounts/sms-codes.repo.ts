import { type Database, type Kysely, type SmsCodePurpose, sql } from '@kyfw/db';

export interface SmsCodeRecord {
  id: string;
  phone: string;
  purpose: SmsCodePurpose;
  codeHash: string;
  userId: string | null;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
  supersededAt: Date | null;
}

/**
 * Serialises sends for one key (a phone, an IP) until the transaction ends, so two concurrent
 * requests cannot both pass a limit. Works the same on PostgreSQL and PGlite.
 */
export async function lockKey(db: Kysely<Database>, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
}

/** Codes sent since `since` (newest first) to a phone or from a client IP: when, and for what. */
export async function listRecentSends(
  db: Kysely<Database>,
  by: { phone: string } | { clientIp: string },
  since: Date,
): Promise<{ sentAt: Date; purpose: SmsCodePurpose }[]> {
  let query = db.selectFrom('sms_codes').select(['created_at', 'purpose']).where('created_at', '>', since);
  query = 'phone' in by ? query.where('phone', '=', by.phone) : query.where('client_ip', '=', by.clientIp);
  const rows = await query.orderBy('created_at', 'desc').execute();
  return rows.map((r) => ({ sentAt: r.created_at, purpose: r.purpose }));
}

export async function insertSmsCode(
  db: Kysely<Database>,
  values: {
    id: string;
    phone: string;
    purpose: SmsCodePurpose;
    codeHash: string;
    userId: string | null;
    clientIp: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('sms_codes')
    .values({
      id: values.id,
      phone: values.phone,
      purpose: values.purpose,
      code_hash: values.codeHash,
      user_id: values.userId,
      client_ip: values.clientIp,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

/** A send that failed at the provider is forgotten: it neither counts nor replaces the previous code. */
export async function deleteSmsCode(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute();
}

/** After a successful send, older open codes for the same phone and purpose stop counting. */
export async function supersedeOlderCodes(
  db: Kysely<Database>,
  values: { phone: string; purpose: SmsCodePurpose; keepId: string; now: Date },
): Promise<void> {
  await db
    .updateTable('sms_codes')
    .set({ superseded_at: values.now })
    .where('phone', '=', values.phone)
    .where('purpose', '=', values.purpose)
    .where('id', '<>', values.keepId)
    .where('consumed_at', 'is', null)
    .where('superseded_at', 'is', null)
    .execute();
}

/** The latest code sent to a phone for a purpose (whatever its state), or undefined. */
export async function findLatestCode(
  db: Kysely<Database>,
  phone: string,
  purpose: SmsCodePurpose,
): Promise<SmsCodeRecord | undefined> {
  const row = await db
    .selectFrom('sms_codes')
    .selectAll()
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('superseded_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    phone: row.phone,
    purpose: row.purpose,
    codeHash: row.code_hash,
    userId: row.user_id,
    attempts: row.attempts,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    consumedAt: row.consumed_at,
    supersededAt: row.superseded_at,
  };
}

/** Counts one wrong try, atomically; returns the new count (undefined if the code is no longer open). */
export async function recordWrongAttempt(
  db: Kysely<Database>,
  id: string,
  maxAttempts: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', maxAttempts)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/**
 * Uses the code up; true for exactly one caller however many race (single use). Re-checks expiry,
 * the try budget and that no newer code replaced it.
 */
export async function consumeCode(
  db: Kysely<Database>,
  id: string,
  now: Date,
  maxAttempts: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .where('superseded_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Erasure: codes sent to a phone or asked for by an account. */
export async function deleteCodesOf(
  db: Kysely<Database>,
  values: { phone: string | null; userId: string },
): Promise<void> {
  await db
    .deleteFrom('sms_codes')
    .where((eb) =>
      values.phone
        ? eb.or([eb('user_id', '=', values.userId), eb('phone', '=', values.phone)])
        : eb('user_id', '=', values.userId),
    )
    .execute();
}

/** Housekeeping: codes created before `before` (far beyond any limit window). */
export async function deleteOldCodes(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('sms_codes').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
