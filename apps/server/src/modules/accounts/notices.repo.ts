import type { Database, Kysely } from '@kyfw/db';

export interface AccountNotice {
  id: string;
  userId: string;
  kind: 'inactivity';
  channel: 'sms' | 'record';
  lastLoginAt: Date;
  sentAt: Date;
  closeAfter: Date;
}

/** Records an inactivity notice; false when one exists for this inactivity period already. */
export async function insertInactivityNotice(
  db: Kysely<Database>,
  values: { userId: string; channel: 'sms' | 'record'; lastLoginAt: Date; sentAt: Date; closeAfter: Date },
): Promise<boolean> {
  const row = await db
    .insertInto('account_notices')
    .values({
      user_id: values.userId,
      kind: 'inactivity',
      channel: values.channel,
      last_login_at: values.lastLoginAt,
      sent_at: values.sentAt,
      close_after: values.closeAfter,
    })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'last_login_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The inactivity notice about this exact last login, if one was sent. */
export async function findInactivityNotice(
  db: Kysely<Database>,
  userId: string,
  lastLoginAt: Date,
): Promise<AccountNotice | undefined> {
  const row = await db
    .selectFrom('account_notices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'inactivity')
    .where('last_login_at', '=', lastLoginAt)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    channel: row.channel,
    lastLoginAt: row.last_login_at,
    sentAt: row.sent_at,
    closeAfter: row.close_after,
  };
}

export async function listNoticesOf(db: Kysely<Database>, userId: string): Promise<AccountNotice[]> {
  const rows = await db
    .selectFrom('account_notices')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('sent_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    channel: row.channel,
    lastLoginAt: row.last_login_at,
    sentAt: row.sent_at,
    closeAfter: row.close_after,
  }));
}
