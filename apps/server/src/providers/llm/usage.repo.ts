import { type Database, type Kysely, sql } from '@kyfw/db';
import type { LlmUsageRecord, LlmUsageRecorder } from './llm.types.ts';

/** China Standard Time (UTC+8, no daylight saving): a spending day runs from 00:00 to 24:00 there. */
const CST_OFFSET_MS = 8 * 3_600_000;

/** YYYY-MM-DD of the China-time day holding `at`: the day of llm_daily_spend's rows. */
export function chinaDayKey(at: Date): string {
  return new Date(at.getTime() + CST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The scope of an account's calls made without an order (free: titles, outlines, abstracts). */
export const freeUserScope = (userId: string) => `free-user:${userId}`;

/** The llm_daily_spend scopes a call counts in: every call in 'all'; one without an order in its account's. */
function scopesOf(record: LlmUsageRecord): string[] {
  return record.userId && !record.orderNo ? ['all', freeUserScope(record.userId)] : ['all'];
}

/**
 * Writes each billed call into llm_usage (migration 0020), stamped with `now()` (the injected
 * clock), and adds it to the day's running counters (llm_daily_spend, migration 0063) in the same
 * transaction: the quotas read those rows, never a sum over the day's calls.
 */
export function createUsageRecorder(db: Kysely<Database>, now?: () => Date): LlmUsageRecorder {
  return async (record) => {
    const at = now?.() ?? new Date();
    const tokens = record.promptTokens + record.completionTokens;
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto('llm_usage')
        .values({
          task: record.task.slice(0, 40),
          order_no: record.orderNo ?? null,
          user_id: record.userId ?? null,
          provider: record.provider,
          model: record.model.slice(0, 200),
          prompt_tokens: record.promptTokens,
          completion_tokens: record.completionTokens,
          cost_micro_yuan: record.costMicroYuan,
          ...(now ? { created_at: at } : {}),
        })
        .execute();
      for (const scope of scopesOf(record)) {
        await tx
          .insertInto('llm_daily_spend')
          .values({
            day: chinaDayKey(at),
            scope,
            calls: 1,
            tokens,
            cost_micro_yuan: record.costMicroYuan,
          })
          .onConflict((oc) =>
            oc.columns(['day', 'scope']).doUpdateSet({
              calls: sql<number>`llm_daily_spend.calls + 1`,
              tokens: sql<string>`llm_daily_spend.tokens + excluded.tokens`,
              cost_micro_yuan: sql<string>`llm_daily_spend.cost_micro_yuan + excluded.cost_micro_yuan`,
            }),
          )
          .execute();
      }
    });
  };
}

/** Today's running counters of the scopes asked (0 for a scope without a row). */
export async function dailySpendOf(
  db: Kysely<Database>,
  day: string,
  scopes: readonly string[],
): Promise<Map<string, { calls: number; tokens: number; costMicroYuan: number }>> {
  const rows = await db
    .selectFrom('llm_daily_spend')
    .select(['scope', 'calls', 'tokens', 'cost_micro_yuan'])
    .where('day', '=', day)
    .where('scope', 'in', [...scopes])
    .execute();
  return new Map(
    scopes.map((scope) => {
      const row = rows.find((r) => r.scope === scope);
      return [
        scope,
        {
          calls: Number(row?.calls ?? 0),
          tokens: Number(row?.tokens ?? 0),
          costMicroYuan: Number(row?.cost_micro_yuan ?? 0),
        },
      ];
    }),
  );
}

/** Deletes the account counters of days before `day` (the 'all' rows stay: one a day). */
export async function pruneDailySpend(db: Kysely<Database>, beforeDay: string): Promise<number> {
  const result = await db
    .deleteFrom('llm_daily_spend')
    .where('scope', '<>', 'all')
    .where('day', '<', beforeDay)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface OrderLlmUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costMicroYuan: number;
}

/** The tokens and cost spent for one order. */
export async function usageOfOrder(db: Kysely<Database>, orderNo: string): Promise<OrderLlmUsage> {
  const row = await db
    .selectFrom('llm_usage')
    .where('order_no', '=', orderNo)
    .select((eb) => [
      eb.fn.countAll<string>().as('calls'),
      eb.fn.coalesce(eb.fn.sum<string>('prompt_tokens'), eb.lit(0)).as('prompt'),
      eb.fn.coalesce(eb.fn.sum<string>('completion_tokens'), eb.lit(0)).as('completion'),
      eb.fn.coalesce(eb.fn.sum<string>('cost_micro_yuan'), eb.lit(0)).as('cost'),
    ])
    .executeTakeFirstOrThrow();
  return {
    calls: Number(row.calls),
    promptTokens: Number(row.prompt),
    completionTokens: Number(row.completion),
    costMicroYuan: Number(row.cost),
  };
}
