import { type Database, type Kysely, sql } from '@kyfw/db';

/**
 * The counters of free AI calls live in `rate_limit_hits` (migration of the per-client limits),
 * one row per bucket (`ai-free|user:<id>|day`, `ai-free|addr:<address>|minute`, …) holding the start
 * of its current fixed window and the calls in it: every API process counts in the same rows.
 * Rows older than a day are pruned with the other rate-limit rows.
 */

/** Serialises quota decisions for one key until the transaction ends (PostgreSQL and PGlite). */
export async function lockQuotaKey(db: Kysely<Database>, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`ai-free|${key}`}))`.execute(db);
}

/** The calls counted in each bucket's window starting at its `windowStart` (0 for an older or no row). */
export async function readCounters(
  db: Kysely<Database>,
  buckets: readonly { bucket: string; windowStart: Date }[],
): Promise<number[]> {
  const rows = await db
    .selectFrom('rate_limit_hits')
    .select(['bucket', 'window_start', 'hits'])
    .where(
      'bucket',
      'in',
      buckets.map((b) => b.bucket),
    )
    .execute();
  return buckets.map((b) => {
    const row = rows.find((r) => r.bucket === b.bucket);
    return row && new Date(row.window_start).getTime() === b.windowStart.getTime() ? Number(row.hits) : 0;
  });
}

/** Counts one call in a bucket's window; a row of an older window starts again from this window. */
export async function countCall(db: Kysely<Database>, bucket: string, windowStart: Date): Promise<void> {
  const sameWindow = sql<boolean>`rate_limit_hits.window_start = ${windowStart}`;
  await db
    .insertInto('rate_limit_hits')
    .values({ bucket, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        hits: sql<number>`case when ${sameWindow} then rate_limit_hits.hits + 1 else 1 end`,
        window_start: windowStart,
      }),
    )
    .execute();
}

/** Takes back one call counted in a bucket's window (nothing when the window has passed). */
export async function uncountCall(db: Kysely<Database>, bucket: string, windowStart: Date): Promise<void> {
  // hits > 0 is a rule of the table: the last call of a window goes with its row.
  await db
    .deleteFrom('rate_limit_hits')
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .where('hits', '<=', 1)
    .execute();
  await db
    .updateTable('rate_limit_hits')
    .set({ hits: sql<number>`hits - 1` })
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 1)
    .execute();
}

/** Free calls answered since `since` (the day buckets of accounts whose window started then). */
export async function freeCallsSince(db: Kysely<Database>, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_hits')
    .select(sql<string>`coalesce(sum(hits), 0)`.as('calls'))
    .where('bucket', 'like', 'ai-free|user:%|day')
    .where('window_start', '=', windowStart)
    .executeTakeFirstOrThrow();
  return Number(row.calls);
}

const sums = {
  calls: sql<string>`count(*)`,
  tokens: sql<string>`coalesce(sum(prompt_tokens + completion_tokens), 0)`,
  cost: sql<string>`coalesce(sum(cost_micro_yuan), 0)`,
};

export interface Spend {
  calls: number;
  tokens: number;
  costMicroYuan: number;
}

const spendOf = (r: { calls: string; tokens: string; cost: string }): Spend => ({
  calls: Number(r.calls),
  tokens: Number(r.tokens),
  costMicroYuan: Number(r.cost),
});

/** Every LLM call's tokens and cost in [from, to) (table llm_usage; the recorder stamps the clock's time). */
export async function spendBetween(db: Kysely<Database>, from: Date, to: Date): Promise<Spend> {
  const row = await db
    .selectFrom('llm_usage')
    .select([sums.calls.as('calls'), sums.tokens.as('tokens'), sums.cost.as('cost')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return spendOf(row);
}

/** The accounts that spent most tokens in [from, to), with their phone numbers. */
export async function topAccountsBetween(db: Kysely<Database>, from: Date, to: Date, limit: number) {
  const rows = await db
    .selectFrom('llm_usage')
    .leftJoin('users', (join) => join.on(sql<boolean>`users.id::text = llm_usage.user_id`))
    .select([
      'llm_usage.user_id as userId',
      sql<string | null>`max(users.phone_number)`.as('phone'),
      sql<string>`count(*)`.as('calls'),
      sql<string>`coalesce(sum(llm_usage.prompt_tokens + llm_usage.completion_tokens), 0)`.as('tokens'),
      sql<string>`coalesce(sum(llm_usage.cost_micro_yuan), 0)`.as('cost'),
    ])
    .where('llm_usage.user_id', 'is not', null)
    .where('llm_usage.created_at', '>=', from)
    .where('llm_usage.created_at', '<', to)
    .groupBy('llm_usage.user_id')
    .orderBy(sql`sum(llm_usage.prompt_tokens + llm_usage.completion_tokens)`, 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.userId as string, phone: r.phone, ...spendOf(r) }));
}

/** Tokens and cost per task in [from, to), most tokens first. */
export async function spendByTaskBetween(db: Kysely<Database>, from: Date, to: Date) {
  const rows = await db
    .selectFrom('llm_usage')
    .select(['task', sums.calls.as('calls'), sums.tokens.as('tokens'), sums.cost.as('cost')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('task')
    .orderBy(sums.tokens, 'desc')
    .execute();
  return rows.map((r) => ({ task: r.task, ...spendOf(r) }));
}

/** Tokens and cost per China-time day in [from, to), keyed YYYY-MM-DD. */
export async function spendByDayBetween(db: Kysely<Database>, from: Date, to: Date) {
  const day = sql<string>`to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('llm_usage')
    .select([day.as('day'), sums.calls.as('calls'), sums.tokens.as('tokens'), sums.cost.as('cost')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [r.day, spendOf(r)]));
}

/** Today's tokens of each account's free calls (llm_daily_spend 'free-user:<id>'), by user id. */
export async function freeTokensOf(
  db: Kysely<Database>,
  day: string,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('llm_daily_spend')
    .select(['scope', 'tokens'])
    .where('day', '=', day)
    .where(
      'scope',
      'in',
      userIds.map((id) => `free-user:${id}`),
    )
    .execute();
  return new Map(rows.map((r) => [r.scope.slice('free-user:'.length), Number(r.tokens)]));
}

/** Accounts whose free calls' tokens reached `limit` on `day`. */
export async function accountsAtTokenLimit(
  db: Kysely<Database>,
  day: string,
  limit: number,
): Promise<number> {
  const row = await db
    .selectFrom('llm_daily_spend')
    .select(sql<string>`count(*)`.as('n'))
    .where('day', '=', day)
    .where('scope', 'like', 'free-user:%')
    .where('tokens', '>=', String(limit))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
