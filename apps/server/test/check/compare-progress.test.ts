import { sql } from '@kyfw/db';
import type { CheckProgress } from '@kyfw/simcheck';
import { extractDocument } from '@kyfw/simcheck/extract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckCpuPool } from '../../src/modules/check/cpu-pool.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  checkStatus,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';

// While the paper is compared, the percentage the user sees is the engine's own progress: the
// worker thread passes the engine's reports to the pool's caller, and the check job stores them
// (10 + 70 × the share done) until the comparison is complete at 80, before the report is built.

let t: CheckTestApp;
let user: { token: string; userId: string };
const source = libraryText(611, 1500);
const planted = source.slice(200, 420).replace(/\n/g, '');
const thesis = buildThesis({ seed: 61, chars: 15_000, planted: [planted] });
const docx = buildDocx(thesis.blocks);

beforeAll(async () => {
  t = await buildCheckApp();
  user = await newUser(t);
  await seedLibrary(t, [
    { id: 'lib:progress', title: '进度测试来源', text: source },
    { id: 'lib:other', title: '其他来源', text: libraryText(612, 1500) },
  ]);
  // Every change of a check's stage or progress, in the order the database stored them.
  await sql`create table test_check_progress_log (
    seq serial primary key,
    check_id uuid not null,
    status text not null,
    stage text,
    progress integer not null
  )`.execute(t.db);
  await sql`create function test_log_check_progress() returns trigger language plpgsql as $$
    begin
      if new.stage is distinct from old.stage or new.progress is distinct from old.progress
         or new.status is distinct from old.status then
        insert into test_check_progress_log (check_id, status, stage, progress)
        values (new.id, new.status, new.stage, new.progress);
      end if;
      return new;
    end $$`.execute(t.db);
  await sql`create trigger test_check_progress after update on checks
    for each row execute function test_log_check_progress()`.execute(t.db);
});

afterAll(async () => {
  await t.close();
});

function isIncreasing(values: number[]): boolean {
  return values.every((v, i) => i === 0 || v > values[i - 1]!);
}

describe('progress while comparing', () => {
  it('the pool passes the engine progress to the caller: increasing fractions ending at 1, before the result', async () => {
    const doc = await extractDocument(docx, { fileName: 'paper.docx' });
    const seen: CheckProgress[] = [];
    const result = await t.check.pool.compare(t.check.indexLocation, doc.text, doc.headings, {
      onProgress: (p) => seen.push(p),
    });
    // When the result arrives the last progress (report, 1) has been passed on already; anything
    // later would break the strictly increasing fractions checked below.
    expect(seen.at(-1)).toEqual({ stage: 'report', fraction: 1 });
    expect(result.report.sources.map((s) => s.sourceId)).toContain('lib:progress');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]!.fraction).toBe(0);
    expect(seen.at(-1)).toEqual({ stage: 'report', fraction: 1 });
    expect(isIncreasing(seen.map((p) => p.fraction))).toBe(true);
    const stages = ['candidates', 'exact', 'paraphrase', 'report'];
    expect(isIncreasing(seen.map((p) => stages.indexOf(p.stage)).filter((s, i, a) => s !== a[i - 1]))).toBe(
      true,
    );

    // A caller that does not ask for progress gets the same result; a throwing callback breaks nothing.
    const plain = await t.check.pool.compare(t.check.indexLocation, doc.text, doc.headings);
    expect(plain.report).toEqual(result.report);
    const despite = await t.check.pool.compare(t.check.indexLocation, doc.text, doc.headings, {
      onProgress: () => {
        throw new Error('display broke');
      },
    });
    expect(despite.report).toEqual(result.report);
  });

  it("the check's stored progress while comparing is the engine's, reaching 80 before the report is built", async () => {
    const up = await upload(t, user.token, { bytes: docx, name: '进度.docx' }, { title: '进度' });
    expect(up.code).toBe(0);
    const checkId = up.data.orderId;
    await payCheckOrder(t, user.token, checkId);

    // The job's view of the pool: what the engine reported to it.
    const real: CheckCpuPool = t.check.pool;
    const reported: number[] = [];
    t.check.pool = {
      ...real,
      compare: (location, text, headings, options) =>
        real.compare(location, text, headings, {
          onProgress: (p) => {
            reported.push(p.fraction);
            options?.onProgress?.(p);
          },
        }),
    };
    try {
      await runCheckJobs(t);
    } finally {
      t.check.pool = real;
    }
    expect((await checkStatus(t, user.token, checkId)).data).toMatchObject({
      checkStatus: 'done',
      progress: 100,
    });

    expect(reported[0]).toBe(0);
    expect(reported.at(-1)).toBe(1);
    expect(isIncreasing(reported)).toBe(true);

    const { rows: log } = await sql<{ stage: string | null; progress: number }>`
      select stage, progress from test_check_progress_log where check_id = ${checkId} order by seq
    `.execute(t.db);
    const stages = log.map((r) => r.stage);
    const firstComparing = stages.indexOf('comparing');
    const firstReporting = stages.indexOf('reporting');
    expect(firstComparing).toBeGreaterThan(-1);
    expect(firstReporting).toBeGreaterThan(firstComparing);
    const comparing = log.slice(firstComparing, firstReporting);
    expect(comparing.every((r) => r.stage === 'comparing')).toBe(true);
    const values = comparing.map((r) => r.progress);
    // Starts at 10, every later value is one the engine reported (10 + 70 × fraction), increasing,
    // and the last one is the whole comparison: 80.
    const fromEngine = new Set(reported.map((f) => Math.round(10 + 70 * f)));
    expect(values[0]).toBe(10);
    for (const v of values.slice(1)) expect(fromEngine).toContain(v);
    expect(isIncreasing(values)).toBe(true);
    expect(values.at(-1)).toBe(80);
    // Then the report (85, 95) and done (100).
    expect(log.slice(firstReporting).map((r) => r.progress)).toEqual([85, 95, 100]);
  });
});
