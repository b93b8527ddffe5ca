import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DbHandle, sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { claimJobs } from '../../src/jobs/queue.ts';
import { checkRunJob } from '../../src/modules/check/check.jobs.ts';
import { openPersistentDb } from '../orders/orders-helper.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  checkStatus,
  getReport,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';

// Nothing is lost when the server stops in the middle of a check: the embedded database and
// DATA_DIR persist, the job goes back to the queue, and the next process finishes the check.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kyfw-check-restart-'));
const source = libraryText(401, 1500);
const planted = source.slice(200, 380).replace(/\n/g, '');
const thesis = buildThesis({ seed: 41, chars: 20_000, planted: [planted] });

let handle: DbHandle | undefined;
let t: CheckTestApp | undefined;

async function start(): Promise<CheckTestApp> {
  handle = await openPersistentDb(dataDir);
  t = await buildCheckApp({ dataDir, db: handle });
  return t;
}

async function stop(): Promise<void> {
  await t?.closeApp();
  await handle?.close();
  t = undefined;
  handle = undefined;
}

// Creating a persistent PGlite database (initdb) takes a while: done once, before the tests.
beforeAll(async () => {
  const app = await start();
  await seedLibrary(app, [{ id: 'lib:restart', title: '重启测试来源', text: source }]);
});

afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function jobOf(app: CheckTestApp, checkId: string) {
  const check = await app.db
    .selectFrom('checks')
    .select(['job_id', 'status', 'stage'])
    .where('id', '=', checkId)
    .executeTakeFirstOrThrow();
  const job = await app.db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', check.job_id!)
    .executeTakeFirstOrThrow();
  return { check, job };
}

describe('restart', () => {
  it('a shutdown in the middle of a check returns the job to the queue; after the restart the user sees the check under way and it finishes', async () => {
    const app = t ?? (await start());
    const user = await newUser(app);
    const up = await upload(app, user.token, { bytes: buildDocx(thesis.blocks), name: 'restart.docx' });
    const orderId = up.data.orderId;
    await payCheckOrder(app, user.token, orderId);

    const worker = createWorker({
      db: app.db,
      definitions: [checkRunJob],
      services: app.root.services,
      shutdownGraceMs: 0,
    });
    void worker.tick();
    // Wait until the check is really under way, then stop the process's worker as a shutdown does.
    for (;;) {
      const { check } = await jobOf(app, orderId);
      if (check.status === 'running' && check.stage !== 'parsing') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await worker.stop();
    const { check, job } = await jobOf(app, orderId);
    expect(check.status).toBe('running');
    expect(job.status).toBe('queued');
    expect(job.attempts).toBe(0); // an interrupted run is not the job's fault
    await stop();

    const restarted = await start();
    const seen = await checkStatus(restarted, user.token, orderId);
    expect(seen.data.checkStatus).toBe('running');
    await runCheckJobs(restarted);
    const done = await checkStatus(restarted, user.token, orderId);
    expect(done.data).toMatchObject({ checkStatus: 'done', progress: 100 });
    const report = await getReport(restarted, user.token, orderId);
    expect(report.data.sources.map((s) => s.id)).toEqual(['lib:restart']);
    const order = await restarted.db
      .selectFrom('orders')
      .select('status')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('done');
  });

  it('a worker that crashed holding the job: its lease runs out and the next worker finishes the check', async () => {
    const app = t ?? (await start());
    const user = await newUser(app);
    const up = await upload(
      app,
      user.token,
      { bytes: buildDocx(thesis.blocks), name: 'crash.docx' },
      { title: '崩溃测试' },
    );
    await payCheckOrder(app, user.token, up.data.orderId);
    // A worker claims the job and dies without a word (no release, no failure recorded).
    const claimed = await claimJobs(app.db, {
      names: [checkRunJob.name],
      workerId: 'crashed-worker',
      limit: 1,
      leaseMs: 60_000,
    });
    expect(claimed).toHaveLength(1);
    await stop();
    const again = await start();
    // The lease runs out (the queue reads the database's clock: the lease is moved, not waited for).
    await sql`update jobs set locked_until = now() - interval '1 second' where id = ${claimed[0]!.id}`.execute(
      again.db,
    );
    const ran = await runCheckJobs(again);
    expect(ran).toEqual([claimed[0]!.id]);
    const { job } = await jobOf(again, up.data.orderId);
    expect(job).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect((await checkStatus(again, user.token, up.data.orderId)).data.checkStatus).toBe('done');
  });
});
