import { z } from 'zod';
import { envVar, integer } from '../../lib/env.ts';

function withDefault<T extends z.ZodType>(schema: T, value: z.output<T>) {
  return envVar(schema.default(value as never));
}

/**
 * Limits on the LLM (decisions 0028, 0033; README "AI quotas"). Free AI calls (/aiWriting/title, /outline,
 * /abstract) count per account and per client address, per minute and per China-time day, and
 * their tokens per account and day; the
 * global daily token budget stops free calls (paid jobs go on); every paid order has a ceiling of
 * calls and tokens. 0 turns a limit off.
 */
export const aiQuotaEnvSchema = z.object({
  AI_FREE_ACCOUNT_PER_MINUTE: withDefault(integer(0, 100_000), 10),
  AI_FREE_ACCOUNT_PER_DAY: withDefault(integer(0, 1_000_000), 60),
  // One campus or dorm NAT is one address: sized for about 100 students at once (see README).
  AI_FREE_ADDRESS_PER_MINUTE: withDefault(integer(0, 1_000_000), 300),
  AI_FREE_ADDRESS_PER_DAY: withDefault(integer(0, 10_000_000), 6_000),
  // Tokens (prompt + completion, failed answers included) of one account's free calls a day.
  AI_FREE_ACCOUNT_TOKENS_PER_DAY: withDefault(integer(0, 1_000_000_000), 300_000),
  LLM_DAILY_TOKEN_BUDGET: withDefault(integer(0, 1_000_000_000_000), 50_000_000),
  LLM_ORDER_MAX_CALLS: withDefault(integer(0, 1_000_000), 2_000),
  LLM_ORDER_MAX_TOKENS: withDefault(integer(0, 1_000_000_000), 10_000_000),
});

export type AiQuotaEnv = z.output<typeof aiQuotaEnvSchema>;

export interface AiQuotaConfig {
  accountPerMinute: number;
  accountPerDay: number;
  addressPerMinute: number;
  addressPerDay: number;
  /** Prompt + completion tokens of one account's free calls a China-time day (rejected answers too); 0: none. */
  accountTokensPerDay: number;
  /** Prompt + completion tokens a China-time day, all calls; 0: none. */
  dailyTokenBudget: number;
  /** LLM calls (each answered attempt) one paid order may make; 0: none. */
  orderMaxCalls: number;
  /** Prompt + completion tokens one paid order may spend; 0: none. */
  orderMaxTokens: number;
}

export function aiQuotaConfigOf(e: AiQuotaEnv): AiQuotaConfig {
  return {
    accountPerMinute: e.AI_FREE_ACCOUNT_PER_MINUTE,
    accountPerDay: e.AI_FREE_ACCOUNT_PER_DAY,
    addressPerMinute: e.AI_FREE_ADDRESS_PER_MINUTE,
    addressPerDay: e.AI_FREE_ADDRESS_PER_DAY,
    accountTokensPerDay: e.AI_FREE_ACCOUNT_TOKENS_PER_DAY,
    dailyTokenBudget: e.LLM_DAILY_TOKEN_BUDGET,
    orderMaxCalls: e.LLM_ORDER_MAX_CALLS,
    orderMaxTokens: e.LLM_ORDER_MAX_TOKENS,
  };
}
