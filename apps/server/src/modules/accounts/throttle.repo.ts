import type { AccountRateAction, Database, Kysely } from '@kyfw/db';

/** Login attempts (newest first) since `since` for a phone or a client IP. */
export async function listLoginAttempts(
  db: Kysely<Database>,
  by: { phone: string } | { clientIp: string },
  since: Date,
): Promise<{ id: number; succeeded: boolean; createdAt: Date; settledAt: Date | null }[]> {
  let query = db
    .selectFrom('login_attempts')
    .select(['id', 'succeeded', 'created_at', 'settled_at'])
    .where('created_at', '>', since);
  query = 'phone' in by ? query.where('phone', '=', by.phone) : query.where('client_ip', '=', by.clientIp);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    succeeded: r.succeeded,
    createdAt: r.created_at,
    settledAt: r.settled_at,
  }));
}

/**
 * Records an attempt. `settled: false` writes it before the password is checked (a failure for
 * racing tries at the same phone until settled by markLoginSucceeded / markLoginFailed).
 */
export async function insertLoginAttempt(
  db: Kysely<Database>,
  values: { phone: string; clientIp: string; succeeded: boolean; settled: boolean; now: Date },
): Promise<number> {
  const row = await db
    .insertInto('login_attempts')
    .values({
      phone: values.phone,
      client_ip: values.clientIp,
      succeeded: values.succeeded,
      created_at: values.now,
      settled_at: values.settled ? values.now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function markLoginSucceeded(db: Kysely<Database>, id: number, now: Date): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set({ succeeded: true, settled_at: now })
    .where('id', '=', id)
    .execute();
}

export async function markLoginFailed(db: Kysely<Database>, id: number, now: Date): Promise<void> {
  await db.updateTable('login_attempts').set({ settled_at: now }).where('id', '=', id).execute();
}

export async function deleteLoginAttemptsOfPhone(db: Kysely<Database>, phone: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('phone', '=', phone).execute();
}

export async function deleteOldLoginAttempts(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('login_attempts').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Events of `action` by `subject` since `since`, newest first. */
export async function listRateEvents(
  db: Kysely<Database>,
  action: AccountRateAction,
  subject: string,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .selectFrom('account_rate_events')
    .select('created_at')
    .where('action', '=', action)
    .where('subject', '=', subject)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => r.created_at);
}

export async function insertRateEvent(
  db: Kysely<Database>,
  action: AccountRateAction,
  subject: string,
  now: Date,
): Promise<void> {
  await db.insertInto('account_rate_events').values({ action, subject, created_at: now }).execute();
}

export async function deleteOldRateEvents(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('account_rate_events')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
