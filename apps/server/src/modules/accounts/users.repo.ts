import type { Database, Kysely, UserRow, UserStatus } from '@kyfw/db';

/** An account as the accounts module sees it (camelCase). `passwordHash` never leaves the module. */
export interface UserRecord {
  id: string;
  phoneNumber: string | null;
  passwordHash: string | null;
  wxOpenId: string | null;
  realName: string | null;
  unitName: string | null;
  gender: 'male' | 'female' | null;
  major: string | null;
  education: string | null;
  status: UserStatus;
  lastLoginAt: Date;
  passwordChangedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProfileFields {
  realName?: string | null;
  unitName?: string | null;
  gender?: 'male' | 'female' | null;
  major?: string | null;
  education?: string | null;
}

export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    phoneNumber: row.phone_number,
    passwordHash: row.password_hash,
    wxOpenId: row.wx_open_id,
    realName: row.real_name,
    unitName: row.unit_name,
    gender: row.gender,
    major: row.major,
    education: row.education,
    status: row.status,
    lastLoginAt: row.last_login_at,
    passwordChangedAt: row.password_changed_at,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function profileColumns(fields: ProfileFields) {
  return {
    ...(fields.realName === undefined ? {} : { real_name: fields.realName }),
    ...(fields.unitName === undefined ? {} : { unit_name: fields.unitName }),
    ...(fields.gender === undefined ? {} : { gender: fields.gender }),
    ...(fields.major === undefined ? {} : { major: fields.major }),
    ...(fields.education === undefined ? {} : { education: fields.education }),
  };
}

/** PostgreSQL's unique_violation, as raised by both pg and PGlite. */
export function isUniqueViolation(error: unknown, constraintHint?: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (e?.code !== '23505') return false;
  if (!constraintHint) return true;
  const where = `${typeof e.constraint === 'string' ? e.constraint : ''} ${typeof e.message === 'string' ? e.message : ''}`;
  return where.includes(constraintHint);
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/** Locks the row for the rest of the transaction (concurrent binds and deletions wait). */
export async function findUserByIdForUpdate(
  db: Kysely<Database>,
  id: string,
): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/**
 * Locks the row for the rest of the transaction against other account changes (binds, logins,
 * deletions wait) but not against foreign-key checks: FOR NO KEY UPDATE does not conflict with the
 * KEY SHARE lock PostgreSQL takes on the users row when a transaction inserts, or changes twice, a
 * row referencing it (an order being paid). Account deletion uses it, so a payment holding its
 * order's lock never waits for the deletion's users lock while the deletion waits for that order
 * (modules/orders/README.md, "Lock order").
 */
export async function lockUserForErasure(db: Kysely<Database>, id: string): Promise<UserRecord | undefined> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/**
 * Holds the account row against its deletion for the rest of the transaction: FOR SHARE conflicts
 * with the deletion's FOR NO KEY UPDATE (lockUserForErasure), not with other FOR SHARE holders (two
 * uploads of the account do not wait for each other) nor with the KEY SHARE of foreign-key checks.
 * A transaction writing new records of the account takes it before those writes: a deletion then
 * either committed before (the row says so) or waits for the transaction and sees its records.
 */
export async function lockUserForNewRecords(
  db: Kysely<Database>,
  id: string,
): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).forShare().executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/** Only active accounts hold a phone, so this finds the one account of a phone, if any. */
export async function findUserByPhone(db: Kysely<Database>, phone: string): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('phone_number', '=', phone).executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

export async function findUserByOpenId(
  db: Kysely<Database>,
  openId: string,
): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').selectAll().where('wx_open_id', '=', openId).executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

export async function insertUser(
  db: Kysely<Database>,
  values: { phoneNumber?: string; passwordHash?: string | null; wxOpenId?: string; now: Date },
): Promise<UserRecord> {
  const row = await db
    .insertInto('users')
    .values({
      phone_number: values.phoneNumber ?? null,
      password_hash: values.passwordHash ?? null,
      wx_open_id: values.wxOpenId ?? null,
      password_changed_at: values.passwordHash ? values.now : null,
      last_login_at: values.now,
      created_at: values.now,
      updated_at: values.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUserRecord(row);
}

export async function updateLastLogin(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', id).execute();
}

export async function updatePasswordHash(
  db: Kysely<Database>,
  id: string,
  passwordHash: string,
  now: Date,
  options: { rehashOnly?: boolean } = {},
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      updated_at: now,
      ...(options.rehashOnly ? {} : { password_changed_at: now }),
    })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .execute();
}

export async function updateProfile(
  db: Kysely<Database>,
  id: string,
  fields: ProfileFields,
  now: Date,
): Promise<UserRecord | undefined> {
  const row = await db
    .updateTable('users')
    .set({ ...profileColumns(fields), updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/** Binds a phone (and optionally a password and profile fields) to an account without one. */
export async function bindPhone(
  db: Kysely<Database>,
  id: string,
  values: { phoneNumber: string; passwordHash: string | null; profile: ProfileFields; now: Date },
): Promise<UserRecord | undefined> {
  const row = await db
    .updateTable('users')
    .set({
      phone_number: values.phoneNumber,
      ...(values.passwordHash ? { password_hash: values.passwordHash, password_changed_at: values.now } : {}),
      ...profileColumns(values.profile),
      updated_at: values.now,
    })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('phone_number', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/** Binds a WeChat openid to an account without one. */
export async function bindOpenId(
  db: Kysely<Database>,
  id: string,
  openId: string,
  now: Date,
): Promise<UserRecord | undefined> {
  const row = await db
    .updateTable('users')
    .set({ wx_open_id: openId, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('wx_open_id', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toUserRecord(row) : undefined;
}

/**
 * Erases the personal data of an account and marks it deleted or closed. The row stays (orders and
 * payments reference its id) but holds nothing that identifies a person; the phone and WeChat
 * account are free for a new registration.
 */
export async function eraseUser(
  db: Kysely<Database>,
  id: string,
  status: Exclude<UserStatus, 'active'>,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      status,
      phone_number: null,
      password_hash: null,
      wx_open_id: null,
      real_name: null,
      unit_name: null,
      gender: null,
      major: null,
      education: null,
      closed_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Active accounts whose last login is before `before`, oldest first, a page at a time: pass the
 * last account of the previous page as `after`.
 */
export async function listInactiveUsers(
  db: Kysely<Database>,
  before: Date,
  limit: number,
  after?: { lastLoginAt: Date; id: string },
): Promise<UserRecord[]> {
  let query = db
    .selectFrom('users')
    .selectAll()
    .where('status', '=', 'active')
    .where('last_login_at', '<', before);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('last_login_at', '>', after.lastLoginAt),
        eb.and([eb('last_login_at', '=', after.lastLoginAt), eb('id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy('last_login_at').orderBy('id').limit(limit).execute();
  return rows.map(toUserRecord);
}
