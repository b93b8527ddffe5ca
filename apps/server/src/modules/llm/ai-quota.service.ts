import { AsyncLocalStorage } from 'node:async_hooks';
import { type AiBudget, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import {
  chinaDayKey,
  dailySpendOf,
  freeUserScope,
  type LlmAccounting,
  type LlmChatRequest,
  LlmError,
  type LlmProvider,
  type LlmStructuredRequest,
  pruneDailySpend,
  usageOfOrder,
} from '../../providers/llm/index.ts';
import type { AiQuotaConfig } from './ai-quota.config.ts';
import {
  accountsAtTokenLimit,
  countCall,
  freeCallsSince,
  freeTokensOf,
  lockQuotaKey,
  readCounters,
  type Spend,
  spendBetween,
  spendByDayBetween,
  spendByTaskBetween,
  topAccountsBetween,
  uncountCall,
} from './ai-quota.repo.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** About one free call in this many prunes the account counters older than KEEP_ACCOUNT_DAYS. */
const PRUNE_EVERY = 500;
const KEEP_ACCOUNT_DAYS = 8;
/** China Standard Time (UTC+8, no daylight saving): a quota day runs from 00:00 to 24:00 there. */
const CST_OFFSET_MS = 8 * 3_600_000;

export const QUOTA_TEXTS = {
  accountDay: '今日免费AI生成次数已用完，请于明天 00:00 后再试',
  accountTokens: '今日免费AI生成用量已用完，请于明天 00:00 后再试',
  addressDay: '当前网络今日免费AI生成次数已用完，请于明天 00:00 后再试',
  budget: '今日AI服务用量已达上限，免费AI生成已暂停，请于明天 00:00 后再试',
  tooFast: (seconds: number) => `操作过于频繁，请 ${seconds} 秒后再试`,
} as const;

/** The start of the China-time day holding `now`. */
export function chinaDayStart(now: Date): Date {
  return new Date(Math.floor((now.getTime() + CST_OFFSET_MS) / DAY) * DAY - CST_OFFSET_MS);
}

/**
 * The address a per-address limit counts: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4),
 * IPv6 by its /64 (one household or campus subnet gets a whole /64 and can pick any address in it).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip || 'unknown';
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const yuan = (micro: number) => (micro / 1_000_000).toFixed(4);
const withCost = <S extends Spend>(s: S) => ({ ...s, cost: yuan(s.costMicroYuan) });

export interface AiQuota {
  readonly config: AiQuotaConfig;
  /**
   * Runs one free AI call (no paid order behind it) for an account at a client address: refused
   * with a Chinese message saying when to try again — and nothing run or counted — when the site's
   * daily token budget or the account's daily token budget for free calls is used up, or the
   * account's or the address's calls this minute or today are at their limit; otherwise counted,
   * then run. A failure gives the day's call back (and, before the model was asked — a step out of
   * order, a locked draft — the minute's too); its tokens stay spent (decision 0033).
   * @throws AppError AI_QUOTA_EXHAUSTED (today's quota or budget) or RATE_LIMITED (this minute)
   */
  free<T>(caller: { userId: string; ip: string }, run: () => Promise<T>): Promise<T>;
  /** The provider with the ceiling per paid order: a call of an order past it fails ('rejected') before it is sent. */
  bound(provider: LlmProvider): LlmProvider;
  /** The console's AI 用量 overview. */
  overview(): Promise<AiBudget>;
}

export function createAiQuota(deps: {
  db: Kysely<Database>;
  now: () => Date;
  config: AiQuotaConfig;
}): AiQuota {
  const { db, config } = deps;

  /** Set while a free call runs: whether it asked the model (the bound provider marks it). */
  const freeCall = new AsyncLocalStorage<{ asked: boolean }>();

  async function free<T>(caller: { userId: string; ip: string }, run: () => Promise<T>): Promise<T> {
    const now = deps.now();
    const day = chinaDayStart(now);
    const minute = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
    // Two rows of running counters (llm_daily_spend), not a sum over today's calls.
    const account = freeUserScope(caller.userId);
    const spent = await dailySpendOf(db, chinaDayKey(now), ['all', account]);
    if (config.dailyTokenBudget > 0 && spent.get('all')!.tokens >= config.dailyTokenBudget) {
      throw new AppError(ErrorCode.AI_QUOTA_EXHAUSTED, QUOTA_TEXTS.budget);
    }
    if (config.accountTokensPerDay > 0 && spent.get(account)!.tokens >= config.accountTokensPerDay) {
      throw new AppError(ErrorCode.AI_QUOTA_EXHAUSTED, QUOTA_TEXTS.accountTokens);
    }
    const address = addressKey(caller.ip);
    const days = [
      { bucket: `ai-free|user:${caller.userId}|day`, windowStart: day, max: config.accountPerDay },
      { bucket: `ai-free|addr:${address}|day`, windowStart: day, max: config.addressPerDay },
    ];
    const minutes = [
      { bucket: `ai-free|user:${caller.userId}|minute`, windowStart: minute, max: config.accountPerMinute },
      { bucket: `ai-free|addr:${address}|minute`, windowStart: minute, max: config.addressPerMinute },
    ];
    const limits = [...days, ...minutes];
    await db.transaction().execute(async (tx) => {
      // Always the account first, then the address: two calls never wait on each other in a circle.
      await lockQuotaKey(tx, `user:${caller.userId}`);
      await lockQuotaKey(tx, `addr:${address}`);
      const counts = await readCounters(tx, limits);
      const hit = limits.findIndex((l, i) => l.max > 0 && counts[i]! >= l.max);
      if (hit === 0) throw new AppError(ErrorCode.AI_QUOTA_EXHAUSTED, QUOTA_TEXTS.accountDay);
      if (hit === 1) throw new AppError(ErrorCode.AI_QUOTA_EXHAUSTED, QUOTA_TEXTS.addressDay);
      if (hit >= 2) {
        const seconds = Math.max(1, Math.ceil((minute.getTime() + MINUTE - now.getTime()) / 1000));
        throw new AppError(ErrorCode.RATE_LIMITED, QUOTA_TEXTS.tooFast(seconds));
      }
      for (const l of limits) await countCall(tx, l.bucket, l.windowStart);
    });
    if (Math.random() * PRUNE_EVERY < 1)
      await pruneDailySpend(db, chinaDayKey(new Date(now.getTime() - KEEP_ACCOUNT_DAYS * DAY))).catch(
        () => {},
      );
    const state = { asked: false };
    try {
      return await freeCall.run(state, run);
    } catch (error) {
      // Nothing delivered: the day's call is given back (the message says 本次未扣费). The tokens
      // the model spent stay in the account's and the site's token budgets, and a call that asked
      // the model keeps its place in this minute's count, so failing calls cannot be fired faster
      // than the per-minute limit. A call refused before the model was asked gives back all.
      const back = state.asked ? days : limits;
      await db.transaction().execute(async (tx) => {
        for (const l of back) await uncountCall(tx, l.bucket, l.windowStart);
      });
      throw error;
    }
  }

  function bound(provider: LlmProvider): LlmProvider {
    const check = async (request: LlmAccounting) => {
      const inFree = freeCall.getStore();
      if (inFree) inFree.asked = true;
      if (!request.orderNo) return;
      if (config.orderMaxCalls === 0 && config.orderMaxTokens === 0) return;
      const used = await usageOfOrder(db, request.orderNo);
      const tokens = used.promptTokens + used.completionTokens;
      if (
        (config.orderMaxCalls > 0 && used.calls >= config.orderMaxCalls) ||
        (config.orderMaxTokens > 0 && tokens >= config.orderMaxTokens)
      ) {
        throw new LlmError(
          'rejected',
          `order ${request.orderNo} reached its LLM ceiling (${used.calls} calls, ${tokens} tokens; LLM_ORDER_MAX_CALLS ${config.orderMaxCalls}, LLM_ORDER_MAX_TOKENS ${config.orderMaxTokens})`,
        );
      }
    };
    // Everything else (kind, modelFor, what the adapter adds) is the provider's own.
    return Object.assign(Object.create(provider) as LlmProvider, {
      chat: async (request: LlmChatRequest) => {
        await check(request);
        return provider.chat(request);
      },
      structured: async <T>(request: LlmStructuredRequest<T>) => {
        await check(request);
        return provider.structured(request);
      },
    });
  }

  async function overview(): Promise<AiBudget> {
    const now = deps.now();
    const start = chinaDayStart(now);
    const end = new Date(start.getTime() + DAY);
    const weekStart = new Date(start.getTime() - 6 * DAY);
    const dayKey = chinaDayKey(now);
    const [today, topAccounts, byTask, byDay, freeCallsToday, atTokenLimit] = await Promise.all([
      spendBetween(db, start, end),
      topAccountsBetween(db, start, end, 10),
      spendByTaskBetween(db, start, end),
      spendByDayBetween(db, weekStart, end),
      freeCallsSince(db, start),
      config.accountTokensPerDay > 0 ? accountsAtTokenLimit(db, dayKey, config.accountTokensPerDay) : 0,
    ]);
    const freeTokens = await freeTokensOf(
      db,
      dayKey,
      topAccounts.map((a) => a.userId),
    );
    const budget = config.dailyTokenBudget > 0 ? config.dailyTokenBudget : null;
    const lastDays = Array.from({ length: 7 }, (_, i) => {
      const key = chinaDayKey(new Date(weekStart.getTime() + i * DAY));
      return { day: key, ...withCost(byDay.get(key) ?? { calls: 0, tokens: 0, costMicroYuan: 0 }) };
    });
    return {
      day: dayKey,
      today: withCost(today),
      budgetTokens: budget,
      usedRatio: budget ? today.tokens / budget : null,
      freeCallsStopped: budget !== null && today.tokens >= budget,
      freeCallsToday,
      accountsAtTokenLimit: atTokenLimit,
      topAccounts: topAccounts.map((a) => ({ ...withCost(a), freeTokens: freeTokens.get(a.userId) ?? 0 })),
      byTask: byTask.map(withCost),
      lastDays,
      limits: {
        accountPerMinute: config.accountPerMinute,
        accountPerDay: config.accountPerDay,
        accountTokensPerDay: config.accountTokensPerDay,
        addressPerMinute: config.addressPerMinute,
        addressPerDay: config.addressPerDay,
        orderMaxCalls: config.orderMaxCalls,
        orderMaxTokens: config.orderMaxTokens,
      },
    };
  }

  return { config, free, bound, overview };
}
