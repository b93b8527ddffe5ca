import type { Database, Kysely } from '@kyfw/db';
import type { LlmUsageRecorder } from './llm.types.ts';

/** Writes each billed call into llm_usage (migration 0020), stamped with `now()` (the injected clock). */
export function createUsageRecorder(db: Kysely<Database>, now?: () => Date): LlmUsageRecorder {
  return async (record) => {
    await db
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
        ...(now ? { created_at: now() } : {}),
      })
      .execute();
  };
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
