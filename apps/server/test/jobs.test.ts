import { type Database, type Kysely, sql } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  cancelJob,
  createScheduler,
  createWorker,
  DEFAULT_MAX_ATTEMPTS,
  defineJob,
  enqueue,
  getJob,
  NonRetryableJobError,
  startScheduler,
  startWorker,
} from '../src/jobs/index.ts';
import { claimJobs } from '../src/jobs/queue.ts';
import { DAY_MS, HOUR_MS, slotStart } from '../src/jobs/scheduler.ts';

let db: Kysely<Database>;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  const handle = await createTestDb();
  db = handle.db;
  closeDb = handle.close;
});
afterAll(() => closeDb());
beforeEach(async () => {
  await db.deleteFrom('jobs').execute();
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Seconds from the database clock's now to the job's run_at. */
async function secondsUntilRun(id: string): Promise<number> {
  const r = await sql<{
    s: number;
  }>`select extract(epoch from run_at - now())::float8 as s from jobs where id = ${id}`.execute(db);
  return r.rows[0].s;
}

async function makeDue(id: string): Promise<void> {
  await sql`update jobs set run_at = now() - interval '1 second' where id = ${id}`.execute(db);
}

describe('enqueue and one worker tick', () => {
  it('runs the handler, records progress, result and success on the row', async () => {
    const seen: Array<{ progress: number; text: string | null }> = [];
    const double = defineJob({
      name: 'test.double',
      payloadSchema: z.object({ n: z.number() }),
      async handler({ payload, reportProgress, job }) {
        await reportProgress(50, '计算中');
        const row = await getJob(db, job.id);
        seen.push({ progress: row?.progress ?? -1, text: row?.progressText ?? null });
        return { doubled: payload.n * 2 };
      },
    });
    const { id, created } = await enqueue(db, double, { n: 21 });
    expect(created).toBe(true);
    expect((await getJob(db, id))?.status).toBe('queued');

    const worker = createWorker({ db, definitions: [double] });
    expect(await worker.tick()).toEqual([id]);

    expect(seen).toEqual([{ progress: 50, text: '计算中' }]);
    const job = await getJob(db, id);
    expect(job).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      progress: 100,
      result: { doubled: 42 },
      lockedBy: null,
      lockedUntil: null,
      lastError: null,
    });
    expect(job?.finishedAt).toBeInstanceOf(Date);
    expect(await worker.tick()).toEqual([]);
  });

  it('leaves jobs scheduled for later and jobs of unknown names alone', async () => {
    const noop = defineJob({ name: 'test.noop', handler: async () => null });
    await enqueue(db, noop, {}, { runAt: new Date(Date.now() + 60_000) });
    await enqueue(db, 'test.someone-elses', {});
    expect(await createWorker({ db, definitions: [noop] }).tick()).toEqual([]);
  });

  it('deduplicates by key', async () => {
    const a = await enqueue(db, 'test.noop', { n: 1 }, { dedupeKey: 'order:42' });
    const b = await enqueue(db, 'test.noop', { n: 2 }, { dedupeKey: 'order:42' });
    expect(b).toEqual({ id: a.id, created: false });
    expect(await db.selectFrom('jobs').select('id').execute()).toHaveLength(1);
  });

  it('enqueues inside a caller transaction, atomically with its other writes', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueue(trx, 'test.noop', {});
        throw new Error('order insert failed');
      }),
    ).rejects.toThrow('order insert failed');
    expect(await db.selectFrom('jobs').select('id').execute()).toHaveLength(0);
  });

  it('answers unknown or malformed ids with undefined / false', async () => {
    expect(await getJob(db, 'not-a-uuid')).toBeUndefined();
    expect(await getJob(db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await cancelJob(db, 'nope')).toBe(false);
  });
});

describe('failures and retries', () => {
  it('retries with exponential backoff, records last_error, then fails after max attempts', async () => {
    let runs = 0;
    const flaky = defineJob({
      name: 'test.flaky',
      maxAttempts: 3,
      async handler() {
        runs += 1;
        throw new Error(`上游接口超时 #${runs}`);
      },
    });
    const { id } = await enqueue(db, flaky, {});
    const worker = createWorker({ db, definitions: [flaky] });

    await worker.tick();
    let job = await getJob(db, id);
    expect(job).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'Error: 上游接口超时 #1',
      lockedBy: null,
    });
    expect(await secondsUntilRun(id)).toBeGreaterThan(8);
    expect(await secondsUntilRun(id)).toBeLessThanOrEqual(10);
    expect(await worker.tick()).toEqual([]); // not due yet

    await makeDue(id);
    await worker.tick();
    job = await getJob(db, id);
    expect(job).toMatchObject({ status: 'queued', attempts: 2, lastError: 'Error: 上游接口超时 #2' });
    expect(await secondsUntilRun(id)).toBeGreaterThan(18); // doubled

    await makeDue(id);
    await worker.tick();
    job = await getJob(db, id);
    expect(job).toMatchObject({ status: 'failed', attempts: 3, lastError: 'Error: 上游接口超时 #3' });
    expect(job?.finishedAt).toBeInstanceOf(Date);

    await makeDue(id);
    expect(await worker.tick()).toEqual([]);
    expect(runs).toBe(3);
  });

  it('fails at once on NonRetryableJobError and on an invalid payload', async () => {
    const broken = defineJob({
      name: 'test.broken-file',
      async handler() {
        throw new NonRetryableJobError('文件已损坏');
      },
    });
    const typed = defineJob({
      name: 'test.typed',
      payloadSchema: z.object({ orderId: z.string() }),
      handler: async () => 'ran',
    });
    const a = await enqueue(db, broken, {});
    const b = await enqueue(db, 'test.typed', { orderId: 7 });
    await createWorker({ db, definitions: [broken, typed], concurrency: 2 }).tick();

    expect(await getJob(db, a.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'NonRetryableJobError: 文件已损坏',
    });
    const job = await getJob(db, b.id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1, result: null });
    expect(job?.lastError).toContain('invalid payload');
  });
});

describe('leases, crashes and concurrency', () => {
  const echo = defineJob({ name: 'test.echo', handler: async ({ job }) => ({ ran: job.id }) });

  it('claims a job again when its worker died mid-run (lease expired)', async () => {
    const { id } = await enqueue(db, echo, {});
    // A worker claims it and "crashes": the row stays running with its lease.
    const [claimed] = await claimJobs(db, {
      names: [echo.name],
      workerId: 'crashed-worker',
      limit: 1,
      leaseMs: 60_000,
    });
    expect(claimed).toMatchObject({ id, status: 'running', lockedBy: 'crashed-worker', attempts: 1 });

    const survivor = createWorker({ db, definitions: [echo], workerId: 'survivor' });
    expect(await survivor.tick()).toEqual([]); // lease still valid

    await sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`.execute(db);
    expect(await survivor.tick()).toEqual([id]);
    expect(await getJob(db, id)).toMatchObject({ status: 'succeeded', attempts: 2, result: { ran: id } });
  });

  it('fails a job whose lease expired on its last attempt', async () => {
    const { id } = await enqueue(db, echo, {}, { maxAttempts: 1 });
    await claimJobs(db, { names: [echo.name], workerId: 'crashed-worker', limit: 1, leaseMs: 60_000 });
    await sql`update jobs set locked_until = now() - interval '1 second' where id = ${id}`.execute(db);

    expect(await createWorker({ db, definitions: [echo] }).tick()).toEqual([]);
    const job = await getJob(db, id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1, lockedBy: null });
    expect(job?.lastError).toContain('进程中断');
  });

  it('never gives one job to two workers (FOR UPDATE SKIP LOCKED)', async () => {
    const runsById = new Map<string, number>();
    const slow = defineJob({
      name: 'test.slow',
      async handler({ job }) {
        runsById.set(job.id, (runsById.get(job.id) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return null;
      },
    });
    const ids = new Set<string>();
    for (let i = 0; i < 24; i++) ids.add((await enqueue(db, slow, { i })).id);

    const a = createWorker({ db, definitions: [slow], concurrency: 4, workerId: 'a' });
    const b = createWorker({ db, definitions: [slow], concurrency: 4, workerId: 'b' });
    const claimedBy: Record<string, string[]> = { a: [], b: [] };
    for (let round = 0; round < 10; round++) {
      const [fromA, fromB] = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      claimedBy.a.push(...fromA);
      claimedBy.b.push(...fromB);
    }

    expect([...runsById.keys()].sort()).toEqual([...ids].sort());
    expect([...runsById.values()].every((n) => n === 1)).toBe(true);
    const statuses = await db.selectFrom('jobs').select('status').distinct().execute();
    expect(statuses).toEqual([{ status: 'succeeded' }]);
  });

  it('aborts a running job that is cancelled and keeps it cancelled', async () => {
    let aborted = false;
    const waiting = defineJob({
      name: 'test.waits-for-cancel',
      handler: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    const { id } = await enqueue(db, waiting, {});
    const worker = createWorker({ db, definitions: [waiting], leaseMs: 300 });
    const tick = worker.tick();
    await waitFor(async () => (await getJob(db, id))?.status === 'running');
    expect(await cancelJob(db, id)).toBe(true);
    await tick;

    expect(aborted).toBe(true);
    expect(await getJob(db, id)).toMatchObject({ status: 'cancelled', result: null, lockedBy: null });
  });
});

describe('worker loop and shutdown', () => {
  it('picks up new jobs while running and lets in-flight jobs finish on stop', async () => {
    const finished: string[] = [];
    // The job runs until the test lets it finish, after the stop was asked for.
    let finish = () => {};
    const released = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow = defineJob({
      name: 'test.takes-a-while',
      async handler({ job }) {
        await released;
        finished.push(job.id);
        return null;
      },
    });
    const worker = startWorker({ db, definitions: [slow], pollIntervalMs: 20 });
    const { id } = await enqueue(db, slow, {});
    await waitFor(async () => (await getJob(db, id))?.status === 'running');
    const stopped = worker.stop();
    expect(finished).toEqual([]);
    finish();
    await stopped;

    expect(finished).toEqual([id]);
    expect((await getJob(db, id))?.status).toBe('succeeded');
  });

  it('returns a job that outlives the shutdown grace to the queue without using an attempt', async () => {
    const stubborn = defineJob({
      name: 'test.until-aborted',
      handler: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    const worker = startWorker({ db, definitions: [stubborn], pollIntervalMs: 20, shutdownGraceMs: 100 });
    const { id } = await enqueue(db, stubborn, {});
    await waitFor(async () => (await getJob(db, id))?.status === 'running');
    await worker.stop();

    expect(await getJob(db, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
  });
});

describe('scheduler', () => {
  it('computes slots from the epoch plus offset', () => {
    const nightly = { name: 'n', jobName: 'x', everyMs: DAY_MS, offsetMs: 19 * HOUR_MS };
    // 2025-05-28 10:00 China time = 02:00 UTC: the slot began at 03:00 China time the day before.
    expect(slotStart(nightly, new Date('2025-05-28T02:00:00Z')).toISOString()).toBe(
      '2025-05-27T19:00:00.000Z',
    );
    expect(slotStart(nightly, new Date('2025-05-27T19:00:00Z')).toISOString()).toBe(
      '2025-05-27T19:00:00.000Z',
    );
  });

  it('enqueues each slot once however many schedulers tick', async () => {
    const schedules = [
      { name: 'nightly-report', jobName: 'test.report', everyMs: DAY_MS, offsetMs: 19 * HOUR_MS },
    ];
    const one = createScheduler({ db, schedules });
    const two = createScheduler({ db, schedules });

    const now = new Date('2025-05-28T02:00:00Z');
    await Promise.all([one.tick(now), two.tick(now), one.tick(now)]);
    await one.tick(new Date('2025-05-28T20:00:00Z'));
    const jobs = await db
      .selectFrom('jobs')
      .select(['name', 'dedupe_key', 'run_at'])
      .where('name', '=', 'test.report')
      .orderBy('run_at')
      .execute();
    expect(jobs.map((j) => j.dedupe_key)).toEqual([
      'schedule:nightly-report:2025-05-27T19:00:00.000Z',
      'schedule:nightly-report:2025-05-28T19:00:00.000Z',
    ]);
    expect(jobs[0].run_at.toISOString()).toBe('2025-05-27T19:00:00.000Z');
  });

  it('startScheduler enqueues the current slot right away', async () => {
    const schedules = [{ name: 'hourly', jobName: 'test.hourly', everyMs: HOUR_MS }];
    const keyAt = (date: Date) => `schedule:hourly:${slotStart(schedules[0], date).toISOString()}`;
    const before = keyAt(new Date());
    const scheduler = startScheduler({ db, schedules, checkIntervalMs: 3_600_000 });
    try {
      await waitFor(async () => (await db.selectFrom('jobs').select('dedupe_key').execute()).length > 0);
      const after = keyAt(new Date());
      const jobs = await db.selectFrom('jobs').select('dedupe_key').execute();
      expect(jobs).toHaveLength(1);
      expect([before, after]).toContain(jobs[0].dedupe_key);
    } finally {
      scheduler.stop();
    }
  });
});
