import { type AiBudget, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import {
  type LlmAccounting,
  type LlmChatRequest,
  LlmError,
  type LlmProvider,
  type LlmStructuredRequest,
  usageOfOrder,
} from '../../providers/llm/index.ts';
import type { AiQuotaConfig } from './ai-quota.config.ts';
import {
  countCall,
  freeCallsSince,
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
/** China Standard Time (UTC+8, no daylight saving): a quota day runs from 00:00 to 24:00 there. */
const CST_OFFSET_MS = 8 * 3_600_000;

export const QUOTA_TEXTS = {
  accountDay: '今日免费AI生成次数已用完，请于明天 00:00 后再试',
  addressDay: '当前网络今日免费AI生成次数已用完，请于明天 00:00 后再试',
  budget: '今日AI服务用量已达上限，免费AI生成已暂停，请于明天 00:00 后再试',
  tooFast: (seconds: number) => `操作过于频繁，请 ${seconds} 秒后再试`,
} as const;

/** The start of the China-time day holding `now`. */
export function chinaDayStart(now: Date): Date {
  return new Date(Math.floor((now.getTime() + CST_OFFSET_MS) / DAY) * DAY - CST_OFFSET_MS);
}

/** YYYY-MM-DD of the China-time day holding `at`. */
function chinaDayKey(at: Date): string {
  return new Date(at.getTime() + CST_OFFSET_MS).toISOString().slice(0, 10);
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

/** Whether the failure came from the model (its tokens may be spent) rather than from a rule checked before it. */
function causedByModel(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof LlmError) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const yuan = (micro: number) => (micro / 1_000_000).toFixed(4);
const withCost = <S extends Spend>(s: S) => ({ ...s, cost: yuan(s.costMicroYuan) });

export interface AiQuota {
  readonly config: AiQuotaConfig;
  /**
   * Runs one free AI call (no paid order behind it) for an account at a client address: refused
   * with a Chinese message saying when to try again — and nothing run or counted — when the site's
   * daily token budget is used up or the account's or the address's calls this minute or today are
   * at their limit; otherwise counted, then run. A failure before the model was asked (a step out of
   * order, a locked draft) gives the call back.
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

  async function tokensToday(now: Date): Promise<Spend> {
    const start = chinaDayStart(now);
    return spendBetween(db, start, new Date(start.getTime() + DAY));
  }

  async function free<T>(caller: { userId: string; ip: string }, run: () => Promise<T>): Promise<T> {
    const now = deps.now();
    const day = chinaDayStart(now);
    const minute = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
    if (config.dailyTokenBudget > 0 && (await tokensToday(now)).tokens >= config.dailyTokenBudget) {
      throw new AppError(ErrorCode.AI_QUOTA_EXHAUSTED, QUOTA_TEXTS.budget);
    }
    const address = addressKey(caller.ip);
    const limits = [
      { bucket: `ai-free|user:${caller.userId}|day`, windowStart: day, max: config.accountPerDay },
      { bucket: `ai-free|addr:${address}|day`, windowStart: day, max: config.addressPerDay },
      { bucket: `ai-free|user:${caller.userId}|minute`, windowStart: minute, max: config.accountPerMinute },
      { bucket: `ai-free|addr:${address}|minute`, windowStart: minute, max: config.addressPerMinute },
    ];
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
    try {
      return await run();
    } catch (error) {
      if (!causedByModel(error)) {
        await db.transaction().execute(async (tx) => {
          for (const l of limits) await uncountCall(tx, l.bucket, l.windowStart);
        });
      }
      throw error;
    }
  }

  function bound(provider: LlmProvider): LlmProvider {
    if (config.orderMaxCalls === 0 && config.orderMaxTokens === 0) return provider;
    const check = async (request: LlmAccounting) => {
      if (!request.orderNo) return;
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
    const [today, topAccounts, byTask, byDay, freeCallsToday] = await Promise.all([
      spendBetween(db, start, end),
      topAccountsBetween(db, start, end, 10),
      spendByTaskBetween(db, start, end),
      spendByDayBetween(db, weekStart, end),
      freeCallsSince(db, start),
    ]);
    const budget = config.dailyTokenBudget > 0 ? config.dailyTokenBudget : null;
    const lastDays = Array.from({ length: 7 }, (_, i) => {
      const key = chinaDayKey(new Date(weekStart.getTime() + i * DAY));
      return { day: key, ...withCost(byDay.get(key) ?? { calls: 0, tokens: 0, costMicroYuan: 0 }) };
    });
    return {
      day: chinaDayKey(now),
      today: withCost(today),
      budgetTokens: budget,
      usedRatio: budget ? today.tokens / budget : null,
      freeCallsStopped: budget !== null && today.tokens >= budget,
      freeCallsToday,
      topAccounts: topAccounts.map(withCost),
      byTask: byTask.map(withCost),
      lastDays,
      limits: {
        accountPerMinute: config.accountPerMinute,
        accountPerDay: config.accountPerDay,
        addressPerMinute: config.addressPerMinute,
        addressPerDay: config.addressPerDay,
        orderMaxCalls: config.orderMaxCalls,
        orderMaxTokens: config.orderMaxTokens,
      },
    };
  }

  return { config, free, bound, overview };
}
