import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../src/jobs/index.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { chinaDayStart } from '../../src/modules/llm/ai-quota.service.ts';
import {
  chinaDayKey,
  createUsageRecorder,
  dailySpendOf,
  freeUserScope,
  LlmError,
} from '../../src/providers/llm/index.ts';
import { createClock, DAY, MINUTE, SECOND } from '../accounts/accounts-helper.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
} from '../check/check-helper.ts';
import { consoleCalls } from '../console/console-helper.ts';

// Free AI calls under quotas (issue 21, decision 0028): per account and per address, per minute and
// per China-time day, counted in the database by the injected clock; the global daily token budget;
// the ceiling per paid order; the console's AI 用量 figures; 排队中 with the place in the queue.

const LIMITS = {
  AI_FREE_ACCOUNT_PER_MINUTE: '5',
  AI_FREE_ACCOUNT_PER_DAY: '12',
  AI_FREE_ADDRESS_PER_MINUTE: '8',
  AI_FREE_ADDRESS_PER_DAY: '20',
  LLM_DAILY_TOKEN_BUDGET: '1000000',
  AI_FREE_ACCOUNT_TOKENS_PER_DAY: '100000',
  LLM_ORDER_MAX_CALLS: '3',
  LLM_ORDER_MAX_TOKENS: '50000',
};
const A = '/aiWriting';
const TOO_FAST = /^操作过于频繁，请 (\d+) 秒后再试$/;
const ACCOUNT_DAY = '今日免费AI生成次数已用完，请于明天 00:00 后再试';
const ADDRESS_DAY = '当前网络今日免费AI生成次数已用完，请于明天 00:00 后再试';
const BUDGET = '今日AI服务用量已达上限，免费AI生成已暂停，请于明天 00:00 后再试';
const ACCOUNT_TOKENS = '今日免费AI生成用量已用完，请于明天 00:00 后再试';

let t: CheckTestApp;
let addressSeq = 0;
const staffAccounts: Record<string, { username: string; password: string; totpSecret: string }> = {};

beforeAll(async () => {
  t = await buildCheckApp({ env: LIMITS, clock: createClock('2026-03-02T02:00:00.000Z') });
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'finance', 'support', 'editor'] as const) {
    staffAccounts[role] = await staff.create({ username: `${role}1`, role });
  }
});
afterAll(async () => {
  await t.close();
});

/**
 * Each test starts on a China-time day no other test used (`days` on: 2 keeps "yesterday" empty,
 * 8 the whole last week) at 10:00:00 there, and behind an address of its own.
 */
function freshDay(days = 2): string {
  const next = chinaDayStart(new Date(t.clock.now().getTime() + days * DAY)).getTime() + 10 * 3_600_000;
  t.clock.advance(next - t.clock.now().getTime());
  addressSeq += 1;
  return `10.20.${addressSeq}.1`;
}

const title = (token: string, ip: string) =>
  call<{ titles: string[] }>(
    t,
    `${A}/title`,
    { topic: '城市社区养老服务', area: 'dissertation' },
    { token, ip },
  );

/** LLM calls recorded for an account (each answered attempt is a row of llm_usage). */
async function modelCalls(userId: string): Promise<number> {
  const row = await t.db
    .selectFrom('llm_usage')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A draft with its free outline, ready for /abstract. */
async function draftWithOutline(token: string, ip: string): Promise<string> {
  const saved = await call<{ writingId: string }>(
    t,
    `${A}/saveOrder`,
    { area: 'dissertation', topic: '城市社区养老服务', title: '城市社区养老服务供给研究', targetWords: 6000 },
    { token, ip },
  );
  expect(saved.code).toBe(0);
  const outline = await call(t, `${A}/outline`, { writingId: saved.data.writingId }, { token, ip });
  expect(outline.code).toBe(0);
  return saved.data.writingId;
}

async function boundUser() {
  const user = await newUser(t);
  await grantFreeCheck(t, user.userId);
  return user;
}

describe('a free account hammering the AI', () => {
  it('is stopped at the per-minute limit, then at the daily quota, in Chinese, without asking the model', async () => {
    const ip = freshDay();
    const { token, userId } = await boundUser();

    // 30 titles at once: exactly the minute's 5 are answered.
    const burst = await Promise.all(Array.from({ length: 30 }, () => title(token, ip)));
    expect(burst.filter((r) => r.code === 0)).toHaveLength(5);
    const refused = burst.filter((r) => r.code !== 0);
    expect(refused).toHaveLength(25);
    for (const r of refused) {
      expect(r.code).toBe(ErrorCode.RATE_LIMITED);
      expect(r.message).toMatch(TOO_FAST);
      expect(r.data).toBeNull();
    }
    // 10:00:00 on the clock: the minute ends in 60 s.
    expect(Number(TOO_FAST.exec(refused[0]!.message)![1])).toBe(60);
    const afterBurst = await modelCalls(userId);
    t.clock.advance(45 * SECOND);
    const later = await title(token, ip);
    expect(later.message).toBe('操作过于频繁，请 15 秒后再试');
    expect(await modelCalls(userId)).toBe(afterBurst);

    // The next minute: a draft's outline and abstracts count on the same quota (12 a day).
    t.clock.advance(15 * SECOND);
    const writingId = await draftWithOutline(token, ip); // 6th call
    const abstracts: string[] = [];
    for (let tries = 0; abstracts.length < 6; tries++) {
      expect(tries, 'six abstracts within a few minutes of the clock').toBeLessThan(20);
      const res = await call<{ abstract: string }>(t, `${A}/abstract`, { writingId }, { token, ip });
      if (res.code === ErrorCode.RATE_LIMITED) {
        t.clock.advance(MINUTE);
        continue;
      }
      expect(res.code).toBe(0);
      abstracts.push(JSON.stringify(res.data));
    }
    const stored = await call<{ abstract: unknown }>(t, `${A}/query`, { writingId }, { token, ip });
    const before = await modelCalls(userId);

    t.clock.advance(MINUTE);
    const over = await call(t, `${A}/abstract`, { writingId }, { token, ip });
    expect(over).toMatchObject({ code: ErrorCode.AI_QUOTA_EXHAUSTED, message: ACCOUNT_DAY, data: null });
    // From another address too: the account's quota is the account's.
    const elsewhere = await title(token, '10.99.0.1');
    expect(elsewhere).toMatchObject({ code: ErrorCode.AI_QUOTA_EXHAUSTED, message: ACCOUNT_DAY });
    // Nothing was asked of the model, and the draft's abstract is as it was.
    expect(await modelCalls(userId)).toBe(before);
    const after = await call<{ abstract: unknown }>(t, `${A}/query`, { writingId }, { token, ip });
    expect(after.data.abstract).toEqual(stored.data.abstract);
  });

  it('gives back a call refused for a rule of its own (no outline yet): it costs no quota', async () => {
    const ip = freshDay();
    const { token } = await boundUser();
    const saved = await call<{ writingId: string }>(
      t,
      `${A}/saveOrder`,
      { area: 'dissertation', topic: '养老', title: '养老服务研究', targetWords: 6000 },
      { token, ip },
    );
    for (let i = 0; i < 8; i++) {
      const early = await call(t, `${A}/abstract`, { writingId: saved.data.writingId }, { token, ip });
      expect(early, early.message).toMatchObject({ code: ErrorCode.WRITING_NOT_READY });
    }
    for (let i = 0; i < 5; i++) expect((await title(token, ip)).code).toBe(0);
  });

  it('lets the account in again when the China-time day rolls over on the clock', async () => {
    const ip = freshDay();
    const { token } = await boundUser();
    let served = 0;
    while (served < 12) {
      const res = await title(token, ip);
      if (res.code === ErrorCode.RATE_LIMITED) t.clock.advance(MINUTE);
      else {
        expect(res.code).toBe(0);
        served += 1;
      }
    }
    t.clock.advance(MINUTE);
    expect(await title(token, ip)).toMatchObject({
      code: ErrorCode.AI_QUOTA_EXHAUSTED,
      message: ACCOUNT_DAY,
    });
    // 23:59:59 China time: still today.
    const midnight = chinaDayStart(t.clock.now()).getTime() + DAY;
    t.clock.advance(midnight - SECOND - t.clock.now().getTime());
    expect((await title(token, ip)).code).toBe(ErrorCode.AI_QUOTA_EXHAUSTED);
    // 00:00:00: a new day.
    t.clock.advance(SECOND);
    expect((await title(token, ip)).code).toBe(0);
  });
});

describe('students behind one address (a campus NAT)', () => {
  it('serves two accounts up to the per-address limits, then refuses the address with its own message', async () => {
    const ip = freshDay();
    const b = await boundUser();
    const c = await boundUser();
    const calls = async (token: string, n: number) => {
      const codes: number[] = [];
      for (let i = 0; i < n; i++) codes.push((await title(token, ip)).code);
      return codes;
    };
    // Minute 1: B takes its 5, C is served up to the address's 8.
    expect(await calls(b.token, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(await calls(c.token, 3)).toEqual([0, 0, 0]);
    const full = await title(c.token, ip);
    expect(full.code).toBe(ErrorCode.RATE_LIMITED);
    expect(full.message).toMatch(TOO_FAST);
    // Minutes 2 and 3: 20 in the day for the address.
    t.clock.advance(MINUTE);
    expect(await calls(c.token, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(await calls(b.token, 3)).toEqual([0, 0, 0]);
    t.clock.advance(MINUTE);
    expect(await calls(b.token, 4)).toEqual([0, 0, 0, 0]);
    const closed = await title(c.token, ip);
    expect(closed).toMatchObject({ code: ErrorCode.AI_QUOTA_EXHAUSTED, message: ADDRESS_DAY });
    // C (9 of its 12) is still served from another address; B (12) is not, anywhere.
    expect((await title(c.token, '10.98.0.1')).code).toBe(0);
    expect(await title(b.token, '10.98.0.1')).toMatchObject({ message: ACCOUNT_DAY });
  });

  it('counts an IPv6 client by its /64', async () => {
    freshDay();
    const users = await Promise.all([boundUser(), boundUser()]);
    const codes: number[] = [];
    for (let i = 0; i < 9; i++) {
      const user = users[i % 2]!;
      codes.push((await title(user.token, `2001:db8:1:2::${(i + 1).toString(16)}`)).code);
    }
    expect(codes.slice(0, 8)).toEqual(Array(8).fill(0));
    expect(codes[8]).toBe(ErrorCode.RATE_LIMITED);
  });
});

/** Records spending as the LLM adapter does, at the clock's time (a paid job's section, say). */
/** A call's tokens recorded as the provider records them (llm_usage and today's running counters). */
async function spend(values: {
  userId?: string | null;
  orderNo?: string | null;
  task: string;
  tokens: number;
  at?: Date;
}) {
  await createUsageRecorder(
    t.db,
    () => values.at ?? t.clock.now(),
  )({
    task: values.task,
    orderNo: values.orderNo ?? null,
    userId: values.userId ?? null,
    provider: 'openai',
    model: 'test-model',
    promptTokens: Math.floor(values.tokens / 2),
    completionTokens: Math.ceil(values.tokens / 2),
    costMicroYuan: values.tokens * 3,
  });
}

/** Today's running counter of a scope ('all', 'free-user:<id>'). */
async function counter(scope: string) {
  return (await dailySpendOf(t.db, chinaDayKey(t.clock.now()), [scope])).get(scope)!;
}

const faults = (body: Record<string, unknown>) => t.llmFaults(body);

describe("the daily token budget of an account's free calls", () => {
  it('refuses the account (not others) once its free calls spent the budget, in Chinese, until 00:00', async () => {
    const ip = freshDay();
    const { token, userId } = await boundUser();
    const other = await boundUser();
    expect((await title(token, ip)).code).toBe(0);
    const spentByTitle = (await counter(freeUserScope(userId))).tokens;
    expect(spentByTitle).toBeGreaterThan(0);
    // What the account's paid orders spend is not its free budget.
    await spend({ task: 'writing.section', orderNo: 'KYACCT000001', userId, tokens: 500_000 });
    expect((await counter(freeUserScope(userId))).tokens).toBe(spentByTitle);
    expect((await title(token, ip)).code).toBe(0);
    // Its free calls reach AI_FREE_ACCOUNT_TOKENS_PER_DAY.
    await spend({ task: 'writing.title', userId, tokens: 100_000 });
    const before = await modelCalls(userId);
    expect(await title(token, ip)).toMatchObject({
      code: ErrorCode.AI_QUOTA_EXHAUSTED,
      message: ACCOUNT_TOKENS,
      data: null,
    });
    expect(await modelCalls(userId)).toBe(before);
    // Another account behind the same address is served.
    expect((await title(other.token, ip)).code).toBe(0);
    // Tomorrow (China time) the account starts again.
    t.clock.advance(chinaDayStart(t.clock.now()).getTime() + DAY - t.clock.now().getTime());
    expect((await title(token, ip)).code).toBe(0);
  });

  it("keeps running counters that match the day's llm_usage, for every call and each free account", async () => {
    freshDay();
    const { token, userId } = await boundUser();
    const ip = '10.98.0.1';
    const all = await counter('all');
    for (let i = 0; i < 3; i++) expect((await title(token, ip)).code).toBe(0);
    await spend({ task: 'reduction.rewrite', orderNo: 'KYCOUNT00001', userId, tokens: 1_000 });
    const usage = await t.db
      .selectFrom('llm_usage')
      .select(['order_no', 'prompt_tokens', 'completion_tokens'])
      .where('user_id', '=', userId)
      .execute();
    const tokens = (rows: typeof usage) =>
      rows.reduce((n, r) => n + r.prompt_tokens + r.completion_tokens, 0);
    expect(await counter(freeUserScope(userId))).toMatchObject({
      calls: usage.filter((r) => !r.order_no).length,
      tokens: tokens(usage.filter((r) => !r.order_no)),
    });
    const now = await counter('all');
    expect(now.calls - all.calls).toBe(usage.length);
    expect(now.tokens - all.tokens).toBe(tokens(usage));
  });
});

describe('a free call the model answered but that failed its checks (6003)', () => {
  it("gives back the day's call, keeps the minute's, and its tokens stay spent", async () => {
    const ip = freshDay();
    const { token, userId } = await boundUser();
    // Every answer of writing.title is a refusal: the call fails after asking the model 3 times.
    await faults({ refusal: 100, onlyTask: 'writing.title' });
    const tokensBefore = (await counter(freeUserScope(userId))).tokens;
    const failed = await title(token, ip);
    await faults({});
    expect(failed.code).toBe(ErrorCode.WRITING_AI_FAILED);
    expect(failed.message).toContain('本次未扣费');
    expect(await modelCalls(userId)).toBe(3);
    // The tokens of the three rejected answers count against the account's daily budget.
    expect((await counter(freeUserScope(userId))).tokens).toBeGreaterThan(tokensBefore);
    // The minute still holds the failed call: 4 more this minute (5 a minute), then 1009.
    for (let i = 0; i < 4; i++) expect((await title(token, ip)).code).toBe(0);
    expect((await title(token, ip)).message).toMatch(TOO_FAST);
    // The day does not: 12 a day, 4 answered — 8 more over the next minutes, then 6090.
    let answered = 4;
    for (let tries = 0; answered < 12; tries++) {
      expect(tries).toBeLessThan(20);
      t.clock.advance(MINUTE);
      for (let i = 0; i < 5 && answered < 12; i++) {
        const res = await title(token, ip);
        expect(res.code, res.message).toBe(0);
        answered += 1;
      }
    }
    t.clock.advance(MINUTE);
    expect(await title(token, ip)).toMatchObject({
      code: ErrorCode.AI_QUOTA_EXHAUSTED,
      message: ACCOUNT_DAY,
    });
  });
});

describe('the global daily token budget and the ceiling per paid order', () => {
  it('refuses free calls once today reaches the budget, while a paid order within its ceiling goes on', async () => {
    const ip = freshDay();
    const { token, userId } = await boundUser();
    expect((await title(token, ip)).code).toBe(0);
    await spend({ task: 'writing.section', orderNo: 'KYBUDGET0001', tokens: 1_000_000 });
    const before = await modelCalls(userId);
    expect(await title(token, ip)).toMatchObject({
      code: ErrorCode.AI_QUOTA_EXHAUSTED,
      message: BUDGET,
      data: null,
    });
    expect(await modelCalls(userId)).toBe(before);

    // A paid order's call still reaches the model (the budget stops only free calls).
    const { provider } = t.root.services.llm;
    const paid = await provider.chat({
      task: 'writing.section',
      orderNo: 'KYPAID000001',
      userId,
      messages: [{ role: 'user', content: '题目：养老服务研究' }],
    });
    expect(paid.text.length).toBeGreaterThan(0);

    // Tomorrow the budget starts again.
    t.clock.advance(chinaDayStart(t.clock.now()).getTime() + DAY - t.clock.now().getTime());
    expect((await title(token, ip)).code).toBe(0);
  });

  it('stops a paid order at its ceiling of calls and of tokens, before asking the model', async () => {
    freshDay();
    const { provider } = t.root.services.llm;
    const ask = (orderNo: string) =>
      provider.chat({ task: 'writing.revise', orderNo, messages: [{ role: 'user', content: '题目：测试' }] });
    for (let i = 0; i < 3; i++) expect((await ask('KYCEILING001')).text.length).toBeGreaterThan(0);
    const fourth = await ask('KYCEILING001').catch((error: unknown) => error);
    expect(fourth).toBeInstanceOf(LlmError);
    expect((fourth as LlmError).kind).toBe('rejected');
    const rows = await t.db
      .selectFrom('llm_usage')
      .select('id')
      .where('order_no', '=', 'KYCEILING001')
      .execute();
    expect(rows).toHaveLength(3);

    await spend({ task: 'writing.section', orderNo: 'KYCEILING002', tokens: 50_000 });
    await expect(ask('KYCEILING002')).rejects.toThrow(/ceiling/);
  });
});

describe('the console AI 用量 overview', () => {
  it('shows today against the budget, the top accounts, tasks and 7 days to admin and finance only', async () => {
    const ip = freshDay(8);
    const calls = consoleCalls(t);
    const { token, userId } = await boundUser();
    const heavy = await newUser(t);
    expect((await title(token, ip)).code).toBe(0);
    expect((await title(token, ip)).code).toBe(0);
    await spend({ task: 'writing.section', userId: heavy.userId, orderNo: 'KYTOP0000001', tokens: 400_000 });
    await spend({ task: 'reduction.rewrite', tokens: 777, at: new Date(t.clock.now().getTime() - DAY) });
    // An account whose free calls used up its daily tokens.
    const capped = await newUser(t);
    await spend({ task: 'writing.abstract', userId: capped.userId, tokens: 100_000 });
    const titleTokens = await t.db
      .selectFrom('llm_usage')
      .select((eb) => eb.fn.sum<string>(eb('prompt_tokens', '+', eb.ref('completion_tokens'))).as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();

    const finance = await calls.cookieOf(staffAccounts.finance!);
    const res = await calls.post<{
      day: string;
      today: { calls: number; tokens: number; cost: string };
      budgetTokens: number;
      usedRatio: number;
      freeCallsStopped: boolean;
      freeCallsToday: number;
      accountsAtTokenLimit: number;
      topAccounts: { userId: string; phone: string | null; tokens: number; freeTokens: number }[];
      byTask: { task: string; calls: number; tokens: number }[];
      lastDays: { day: string; tokens: number; calls: number }[];
      limits: Record<string, number>;
    }>('/llm/budget', {}, finance);
    expect(res.body.code).toBe(0);
    const d = res.body.data;
    const todayTokens = 500_000 + Number(titleTokens.n);
    expect(d.day).toBe(new Date(t.clock.now().getTime() + 8 * 3_600_000).toISOString().slice(0, 10));
    expect(d.today).toMatchObject({ calls: 4, tokens: todayTokens });
    expect(d.budgetTokens).toBe(1_000_000);
    expect(d.usedRatio).toBeCloseTo(todayTokens / 1_000_000, 6);
    expect(d.freeCallsStopped).toBe(false);
    expect(d.freeCallsToday).toBe(2);
    expect(d.accountsAtTokenLimit).toBe(1);
    expect(d.topAccounts[1]).toMatchObject({ userId: capped.userId, tokens: 100_000, freeTokens: 100_000 });
    // A paid order's tokens are not the account's free tokens; the titles are.
    expect(d.topAccounts[0]).toMatchObject({ userId: heavy.userId, tokens: 400_000, freeTokens: 0 });
    expect(d.topAccounts[0]!.phone).toMatch(/^1\d{10}$/);
    expect(d.topAccounts[2]).toMatchObject({
      userId,
      tokens: Number(titleTokens.n),
      freeTokens: Number(titleTokens.n),
    });
    expect(d.byTask.map((r) => [r.task, r.calls])).toEqual([
      ['writing.section', 1],
      ['writing.abstract', 1],
      ['writing.title', 2],
    ]);
    expect(d.lastDays).toHaveLength(7);
    expect(d.lastDays[6]).toMatchObject({ day: d.day, tokens: todayTokens, calls: 4 });
    expect(d.lastDays[5]).toMatchObject({ tokens: 777, calls: 1 });
    expect(d.lastDays.slice(0, 5).every((x) => x.tokens === 0)).toBe(true);
    expect(d.limits).toEqual({
      accountPerMinute: 5,
      accountPerDay: 12,
      accountTokensPerDay: 100_000,
      addressPerMinute: 8,
      addressPerDay: 20,
      orderMaxCalls: 3,
      orderMaxTokens: 50_000,
    });

    const admin = await calls.cookieOf(staffAccounts.admin!);
    expect((await calls.post('/llm/budget', {}, admin)).body.code).toBe(0);
    for (const role of ['support', 'editor'] as const) {
      const cookie = await calls.cookieOf(staffAccounts[role]!);
      const refused = await calls.post('/llm/budget', {}, cookie);
      expect(refused.body).toMatchObject({ code: ErrorCode.FORBIDDEN, data: null });
    }
    expect((await calls.post('/llm/budget', {})).body.code).toBe(ErrorCode.UNAUTHORIZED);

    // Past the budget the screen says free calls are stopped.
    await spend({ task: 'writing.section', orderNo: 'KYTOP0000002', tokens: 600_000 });
    const stopped = await calls.post<{ freeCallsStopped: boolean; usedRatio: number }>(
      '/llm/budget',
      {},
      finance,
    );
    expect(stopped.body.data, JSON.stringify(stopped.body)).toMatchObject({ freeCallsStopped: true });
    expect(stopped.body.data.usedRatio).toBeGreaterThanOrEqual(1);
  });
});

describe('queue honesty', () => {
  it('a paid 降重 waiting for a worker says 排队中 and its place, not a percentage', async () => {
    const ip = freshDay();
    const { token } = await newUser(t);
    const text = '城市社区养老服务的供给主体包括政府、市场与社会组织，三者的协同程度决定了服务质量。';
    const sub = await call<{ reductionId: string; orderId: string }>(
      t,
      '/weightReduction/submitContent',
      { text },
      { token, ip },
    );
    expect(sub.code).toBe(0);
    // Three jobs already waiting before this one is paid.
    const others = [];
    for (let i = 0; i < 3; i++) others.push((await enqueue(t.db, 'test.other', { i })).id);
    await payCheckOrder(t, token, sub.data.orderId);

    const query = () =>
      call<{ status: string; statusText: string; progress: number; queueAhead: number | null }>(
        t,
        '/weightReduction/query',
        { reductionId: sub.data.reductionId },
        { token },
      );
    expect((await query()).data).toMatchObject({
      status: 'rewriting',
      statusText: '排队中，前面还有 3 个任务',
      progress: 0,
      queueAhead: 3,
    });
    const list = await call<{ list: { reductionId: string; statusText: string }[] }>(
      t,
      '/weightReduction/getMyWeightReductionOrder',
      {},
      { token },
    );
    expect(list.data.list.find((r) => r.reductionId === sub.data.reductionId)?.statusText).toBe(
      '排队中，前面还有 3 个任务',
    );

    await t.db.updateTable('jobs').set({ status: 'succeeded' }).where('id', 'in', others).execute();
    expect((await query()).data).toMatchObject({ statusText: '排队中，即将开始', queueAhead: 0 });

    // A worker takes it: the page shows the job's own progress again.
    await t.db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 1,
        locked_by: 'test-worker',
        locked_until: new Date(Date.now() + MINUTE),
      })
      .where('dedupe_key', '=', `reduction:${sub.data.orderId}`)
      .execute();
    const running = (await query()).data;
    expect(running.statusText).not.toMatch(/排队/);
    expect(running.queueAhead).toBeNull();
    expect(running.progress).toBeGreaterThan(0);
  });
});
