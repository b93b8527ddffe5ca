import type { Database, Kysely } from '@kyfw/db';

/**
 * The self-service data exports and account deletions (migration 0044), for the console: the
 * account's id, the kind and the time — nothing of what was exported, nothing personal (after a
 * deletion the users row keeps only its id, status and dates, and so does this).
 */
export async function recordAccountRequest(
  db: Kysely<Database>,
  userId: string,
  kind: 'export' | 'deletion',
  now: Date,
): Promise<void> {
  await db.insertInto('account_requests').values({ user_id: userId, kind, requested_at: now }).execute();
}

/** Requests newest first, of one account or all (of a kind), with the account's phone while it has one. */
export async function listAccountRequests(
  db: Kysely<Database>,
  filter: { userId?: string; kind?: 'export' | 'deletion'; page: number; pageSize: number },
) {
  let q = db.selectFrom('account_requests').innerJoin('users', 'users.id', 'account_requests.user_id');
  if (filter.userId) q = q.where('account_requests.user_id', '=', filter.userId);
  if (filter.kind) q = q.where('account_requests.kind', '=', filter.kind);
  const [rows, total] = await Promise.all([
    q
      .select([
        'account_requests.id',
        'account_requests.user_id',
        'account_requests.kind',
        'account_requests.requested_at',
        'users.phone_number',
      ])
      .orderBy('account_requests.requested_at', 'desc')
      .orderBy('account_requests.id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    list: rows.map((r) => ({
      id: String(r.id),
      userId: r.user_id,
      kind: r.kind,
      phone: r.phone_number,
      at: r.requested_at,
    })),
  };
}
