import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/**
 * The console's AI 用量 overview (/admin/llm-usage, docs/api/operator.md): today's tokens and cost
 * against the global daily budget, the accounts and tasks that spent most today, the last 7 days,
 * and the limits in force (AI_* and LLM_* variables, decision 0028). Admin and finance only.
 */

const spend = {
  calls: z.number(),
  /** Prompt + completion tokens. */
  tokens: z.number(),
  costMicroYuan: z.number(),
  /** Yuan, 4 decimals. */
  cost: z.string(),
};

export const aiBudgetSchema = z.object({
  /** Today (China time), YYYY-MM-DD. */
  day: z.string(),
  today: z.object(spend),
  /** LLM_DAILY_TOKEN_BUDGET; null: no global budget. */
  budgetTokens: z.number().nullable(),
  /** Today's tokens / budget (may pass 1: paid jobs keep running); null without a budget. */
  usedRatio: z.number().nullable(),
  /** The budget is used up: free AI calls are refused until tomorrow 00:00. */
  freeCallsStopped: z.boolean(),
  /** Free AI calls answered today (titles, outlines, abstracts). */
  freeCallsToday: z.number(),
  /** Accounts whose free calls reached AI_FREE_ACCOUNT_TOKENS_PER_DAY today (refused until 00:00); 0 without it. */
  accountsAtTokenLimit: z.number(),
  /** The accounts that spent most tokens today (at most 10). */
  topAccounts: z.array(
    z.object({
      userId: z.string(),
      /** The account's phone number, null for a WeChat-only account. */
      phone: z.string().nullable(),
      ...spend,
      /** Today's tokens of its free calls (against limits.accountTokensPerDay). */
      freeTokens: z.number(),
    }),
  ),
  /** Today by task (writing.title, writing.section, reduction.rewrite, …), most tokens first. */
  byTask: z.array(z.object({ task: z.string(), ...spend })),
  /** The last 7 days, oldest first, today last; a day without calls is zeros. */
  lastDays: z.array(z.object({ day: z.string(), ...spend })),
  limits: z.object({
    accountPerMinute: z.number(),
    accountPerDay: z.number(),
    /** AI_FREE_ACCOUNT_TOKENS_PER_DAY: tokens of one account's free calls a day; 0: none. */
    accountTokensPerDay: z.number(),
    addressPerMinute: z.number(),
    addressPerDay: z.number(),
    orderMaxCalls: z.number(),
    orderMaxTokens: z.number(),
  }),
});
export type AiBudget = z.output<typeof aiBudgetSchema>;

export const aiUsageAdminApi = {
  budget: endpoint({
    path: '/admin/llm/budget',
    permission: 'aiUsage.read',
    data: aiBudgetSchema,
  }),
} as const;
