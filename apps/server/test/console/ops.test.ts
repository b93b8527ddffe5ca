import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, call, newUser, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { admin: '', finance: '', support: '', editor: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'finance', 'support', 'editor'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `${role}1`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

describe('users (read-only)', () => {
  it('support finds a user by phone with their order count, and nothing secret', async () => {
    const user = await newUser(t);
    const info = await call<{ phoneNumber: string }>(t, '/getUserInfo', {}, { token: user.token });
    const phone = info.data.phoneNumber;
    const found = await calls.post<Record<string, unknown>[]>(
      '/users/search',
      { phone: phone.slice(0, 7) },
      cookies.support,
    );
    expect(found.body.code).toBe(0);
    const row = found.body.data!.find((u) => u.userId === user.userId);
    expect(row).toMatchObject({ phone, statusText: '正常', orders: 0, paidFen: 0, wechatBound: false });
    expect(JSON.stringify(found.body.data)).not.toMatch(/password|scrypt|openId/i);
    const [audit] = await calls.auditRows('users.search');
    expect(audit).toMatchObject({
      username: 'support1',
      outcome: 'ok',
      detail: { phone: phone.slice(0, 7) },
    });
  });

  it('refuses a too-short phone and the editor role', async () => {
    const short = await calls.post('/users/search', { phone: '13' }, cookies.support);
    expect(short.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '请输入手机号（至少前4位）' });
    expect((await calls.post('/users/search', { phone: '1390' }, cookies.editor)).body.code).toBe(
      ErrorCode.FORBIDDEN,
    );
  });
});

describe('failed jobs', () => {
  it('the admin queues a failed job again; it cannot be retried twice; others are refused', async () => {
    const job = await t.db
      .insertInto('jobs')
      .values({
        name: 'test.never',
        payload: '{}',
        status: 'failed',
        last_error: '连接超时',
        run_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const listed = await calls.post<{ jobId: string; lastError: string }[]>(
      '/jobs/failed',
      {},
      cookies.admin,
    );
    expect(listed.body.data!.find((j) => j.jobId === job.id)).toMatchObject({
      name: 'test.never',
      lastError: '连接超时',
    });
    expect((await calls.post('/jobs/retry', { jobId: job.id }, cookies.support)).body.code).toBe(
      ErrorCode.FORBIDDEN,
    );
    expect((await calls.post('/jobs/failed', {}, cookies.finance)).body.code).toBe(ErrorCode.FORBIDDEN);

    const retried = await calls.post('/jobs/retry', { jobId: job.id }, cookies.admin);
    expect(retried.body).toMatchObject({ code: 0, message: '任务已重新排队' });
    const row = await t.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
    const again = await calls.post('/jobs/retry', { jobId: job.id }, cookies.admin);
    expect(again.body).toMatchObject({ code: ErrorCode.CONFLICT, message: '该任务不存在或不是失败状态' });
    expect((await calls.post('/jobs/retry', { jobId: '42' }, cookies.admin)).body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '任务不存在',
    });
    const [audit] = (await calls.auditRows('jobs.retry')).filter((r) => r.outcome === 'ok');
    expect(audit).toMatchObject({ target: `test.never#${job.id}`, after: { status: 'queued' } });
    // Not run here: take it out of the queue for the other tests.
    await t.db.updateTable('jobs').set({ status: 'cancelled' }).where('id', '=', job.id).execute();
  });
});

describe('AI usage', () => {
  it('finance reads tokens and cost per day, per task and per order from llm_usage', async () => {
    const now = t.clock.now();
    const rows = [
      {
        task: 'reduction.rewrite',
        order_no: 'KY00000000000000000001',
        prompt_tokens: 1000,
        completion_tokens: 500,
        cost_micro_yuan: 1_500_000,
      },
      {
        task: 'reduction.rewrite',
        order_no: 'KY00000000000000000001',
        prompt_tokens: 200,
        completion_tokens: 100,
        cost_micro_yuan: 300_000,
      },
      {
        task: 'writing.section',
        order_no: 'KY00000000000000000002',
        prompt_tokens: 50,
        completion_tokens: 50,
        cost_micro_yuan: 100,
      },
    ];
    await t.db
      .insertInto('llm_usage')
      .values(rows.map((r) => ({ ...r, provider: 'sandbox' as const, model: 'sandbox', created_at: now })))
      .execute();
    const usage = await calls.post<{
      byDay: { key: string; calls: number; cost: string }[];
      byTask: { key: string; calls: number; promptTokens: number; completionTokens: number; cost: string }[];
      byOrder: { key: string; cost: string }[];
    }>('/llm/usage', { days: 7 }, cookies.finance);
    expect(usage.body.code).toBe(0);
    const data = usage.body.data!;
    expect(data.byTask).toEqual([
      {
        key: 'reduction.rewrite',
        calls: 2,
        promptTokens: 1200,
        completionTokens: 600,
        costMicroYuan: 1_800_000,
        cost: '1.8000',
      },
      {
        key: 'writing.section',
        calls: 1,
        promptTokens: 50,
        completionTokens: 50,
        costMicroYuan: 100,
        cost: '0.0001',
      },
    ]);
    expect(data.byDay.reduce((n, d) => n + d.calls, 0)).toBe(3);
    expect(data.byOrder.map((o) => o.key)).toEqual(['KY00000000000000000001', 'KY00000000000000000002']);
    expect((await calls.post('/llm/usage', {}, cookies.support)).body.code).toBe(ErrorCode.FORBIDDEN);
    expect((await calls.post('/llm/usage', { days: 1000 }, cookies.finance)).body.code).toBe(
      ErrorCode.VALIDATION,
    );
  });
});
