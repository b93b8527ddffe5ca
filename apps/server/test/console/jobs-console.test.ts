import { ErrorCode, type StuckJob } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeJob, renewLease } from '../../src/jobs/queue.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { buildOrdersApp, type OrdersTestApp } from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { admin: '', support: '', finance: '' };
const MINUTE = 60_000;

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['admin', 'support', 'finance'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `jobs-${role}`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

/** A job of a kind no worker of the test app runs, in the state given. */
async function job(values: { status: 'running' | 'queued'; lockedUntil?: Date; runAt?: Date }) {
  const now = t.clock.now();
  const row = await t.db
    .insertInto('jobs')
    .values({
      name: 'test.stuck-report',
      payload: '{}',
      status: values.status,
      attempts: values.status === 'running' ? 1 : 0,
      locked_by: values.status === 'running' ? 'worker-a' : null,
      locked_until: values.lockedUntil ?? null,
      run_at: values.runAt ?? now,
      progress: 40,
      progress_text: '比对中',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const stuck = async () => (await calls.post<StuckJob[]>('/jobs/stuck', {}, cookies.admin)).body.data!;

describe('stuck jobs', () => {
  it('lists running jobs past their lease and long-queued ones, not healthy ones', async () => {
    const now = t.clock.now().getTime();
    const dead = await job({ status: 'running', lockedUntil: new Date(now - 7 * MINUTE) });
    const alive = await job({ status: 'running', lockedUntil: new Date(now + 5 * MINUTE) });
    const waiting = await job({ status: 'queued', runAt: new Date(now - 40 * MINUTE) });
    const fresh = await job({ status: 'queued', runAt: new Date(now - 2 * MINUTE) });
    const list = await stuck();
    const ids = list.map((j) => j.jobId);
    expect(ids).toEqual(expect.arrayContaining([dead, waiting]));
    expect(ids).not.toContain(alive);
    expect(ids).not.toContain(fresh);
    expect(list.find((j) => j.jobId === dead)).toMatchObject({
      status: 'running',
      lockedBy: 'worker-a',
      progress: 40,
      progressText: '比对中',
      stuckMinutes: 7,
    });
    expect(list.find((j) => j.jobId === waiting)).toMatchObject({ status: 'queued', stuckMinutes: 40 });
  });

  it('重新排队 takes a job away from a dead worker: its late renewal and result are refused', async () => {
    const id = await job({ status: 'running', lockedUntil: new Date(t.clock.now().getTime() - 3 * MINUTE) });
    const res = await calls.post('/jobs/stuckRetry', { jobId: id }, cookies.admin);
    expect(res.body).toMatchObject({ code: 0, message: '任务已重新排队，空闲的 worker 会立即领取' });
    const row = await t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'queued', locked_by: null, locked_until: null, attempts: 1 });
    expect(await renewLease(t.db, { id, workerId: 'worker-a', leaseMs: 60_000 })).toBe(false);
    expect(await completeJob(t.db, { id, workerId: 'worker-a' }, { late: true })).toBe(false);
    const [audit] = await calls.auditRows('jobs.stuckRetry');
    expect(audit).toMatchObject({
      username: 'jobs-admin',
      outcome: 'ok',
      before: { status: 'running', lockedBy: 'worker-a' },
      after: { status: 'queued' },
    });
    expect((await stuck()).some((j) => j.jobId === id)).toBe(false);
  });

  it('refuses a job whose worker is alive (lease valid), a finished one, an unknown id and a bad id', async () => {
    const alive = await job({ status: 'running', lockedUntil: new Date(t.clock.now().getTime() + MINUTE) });
    const refused = await calls.post('/jobs/stuckRetry', { jobId: alive }, cookies.admin);
    expect(refused.body).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '该任务不存在，或已不再卡住（仍在运行且租约有效，或已完成）',
    });
    expect(
      await t.db
        .selectFrom('jobs')
        .select(['status', 'locked_by'])
        .where('id', '=', alive)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'running', locked_by: 'worker-a' });
    const unknown = await calls.post(
      '/jobs/stuckRetry',
      { jobId: '00000000-0000-4000-8000-000000000000' },
      cookies.admin,
    );
    expect(unknown.body.code).toBe(ErrorCode.CONFLICT);
    const bad = await calls.post('/jobs/stuckRetry', { jobId: 'x' }, cookies.admin);
    expect(bad.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '任务不存在' });
  });

  it('is for admins only', async () => {
    const id = await job({ status: 'running', lockedUntil: new Date(t.clock.now().getTime() - MINUTE) });
    for (const role of ['support', 'finance'] as const) {
      expect((await calls.post('/jobs/stuck', {}, cookies[role])).body.code).toBe(ErrorCode.FORBIDDEN);
      expect((await calls.post('/jobs/stuckRetry', { jobId: id }, cookies[role])).body.code).toBe(
        ErrorCode.FORBIDDEN,
      );
    }
    expect((await calls.post('/jobs/stuck', {})).body.code).toBe(ErrorCode.UNAUTHORIZED);
    expect(
      (await t.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
    ).toBe('running');
  });
});
