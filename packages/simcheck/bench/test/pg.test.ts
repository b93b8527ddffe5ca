/**
 * The simcheck-pg engine's plumbing: schema names, search_path URLs, report comparison, the extra
 * SPEED column; and, when DATABASE_URL names a PostgreSQL server, one build + check on both
 * backends giving the same report.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LIBRARY, SRC_EDUCATION, SRC_SOIL } from '../../test/fixtures.ts';
import type { CheckOutput } from '../engines/types.ts';
import { compareOutputs } from '../lib/compare.ts';
import {
  createSchema,
  dropSchema,
  readPgTarget,
  schemaName,
  schemaTablesSize,
  urlWithSearchPath,
  writePgTarget,
} from '../lib/pg.ts';
import { type CheckTiming, type EngineRun, renderAll, renderSpeed } from '../report.ts';

/** What `pg` itself makes of a connection URL (the engine hands the URL to createPgIndex → pg.Pool). */
function parse(url: string): Record<string, unknown> {
  const client = new pg.Client({ connectionString: url });
  return (client as unknown as { connectionParameters: Record<string, unknown> }).connectionParameters;
}

describe('schemas and URLs', () => {
  it('makes plain lower-case schema names of at most 63 characters', () => {
    expect(schemaName('123_abc', 'library-s20240601-quick')).toBe(
      'simcheck_bench_123_abc_library_s20240601_quick',
    );
    const long = schemaName('99999_lzx1abcd', `scale-${'x'.repeat(80)}`);
    expect(long.length).toBe(63);
    expect(long).toMatch(/^[a-z_][a-z0-9_]*$/);
  });

  it('sets search_path through the URL options, keeping the rest of the URL and earlier options', () => {
    const u = urlWithSearchPath(
      'postgres://kyfw:p%40ss@127.0.0.1:5433/postgres?sslmode=disable',
      'simcheck_bench_a',
    );
    expect(parse(u)).toMatchObject({
      user: 'kyfw',
      password: 'p@ss',
      host: '127.0.0.1',
      port: 5433,
      database: 'postgres',
      options: '-c search_path=simcheck_bench_a',
    });
    const twice = urlWithSearchPath('postgres://h/db?options=-c%20statement_timeout%3D0', 'simcheck_bench_b');
    expect(parse(twice).options).toBe('-c statement_timeout=0 -c search_path=simcheck_bench_b');
    expect(() => urlWithSearchPath('postgres://h/db', 'a; drop table x')).toThrow();
  });

  it('keeps where an index lives in its folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-target-'));
    try {
      writePgTarget(dir, { url: 'postgres://h/db', schema: 's' });
      expect(readPgTarget(dir)).toEqual({ url: 'postgres://h/db', schema: 's' });
      expect(() => readPgTarget(join(dir, 'nothing'))).toThrow(/pg-target\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const out = (ratio: number, start = 0): CheckOutput => ({
  chars: 100,
  copiedChars: ratio * 100,
  ratio,
  matches: [{ start, end: start + 20, sourceId: 'a', sourceStart: 0, sourceEnd: 20, kind: 'verbatim' }],
});

describe('comparing two engines’ reports', () => {
  it('counts identical documents, ignoring check times', () => {
    const a = { d1: { output: out(0.2), ms: 5 }, d2: { output: out(0.3), ms: 7 } };
    const b = { d1: { output: out(0.2), ms: 50 }, d2: { output: out(0.3), ms: 1 } };
    expect(compareOutputs('simcheck', a, b)).toEqual({
      against: 'simcheck',
      total: 2,
      identical: 2,
      differing: [],
    });
  });

  it('names documents whose matches differ or that one side lacks', () => {
    const a = { d1: { output: out(0.2), ms: 5 }, d2: { output: out(0.3, 1), ms: 7 } };
    const b = {
      d1: { output: out(0.2), ms: 5 },
      d2: { output: out(0.3), ms: 7 },
      d3: { output: out(0), ms: 1 },
    };
    expect(compareOutputs('simcheck', a, b)).toEqual({
      against: 'simcheck',
      total: 3,
      identical: 1,
      differing: ['d2', 'd3'],
    });
  });
});

const timing = (medianMs: number, ratio: number): CheckTiming => ({
  medianMs,
  times: [medianMs, medianMs, medianMs],
  openMs: 10,
  maxRss: 100e6,
  chars: 30004,
  ratio,
});
const speedRun = (name: string, ms: number, bytes: number, checkMs: number): EngineRun => ({
  name,
  errors: [],
  speed: { corpusBuild: { ms, maxRss: 150e6, bytes }, corpusCheck: timing(checkMs, 0.642) },
});

describe('SPEED table with the PostgreSQL backend', () => {
  const corpus = { records: 18190, chars: 3.85e6 };
  const simcheck = speedRun('simcheck', 1000, 19.1e6, 200);
  const pg = speedRun('simcheck-pg', 8000, 69.2e6, 300);
  const naive = speedRun('naive', 500, 31.7e6, 50);

  it('adds a column and a ratio column for the extra engine', () => {
    const t = renderSpeed(simcheck, naive, corpus, undefined, undefined, [pg]);
    const [head, , time, size] = t.split('\n');
    expect(head!.trim().split(/\s+/)).toEqual([
      'simcheck',
      'target',
      'simcheck-pg',
      'naive',
      'simcheck/naive',
      'simcheck-pg/naive',
    ]);
    expect(
      time!
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(['1.00 s', '< 20 s ✓', '8.00 s', '0.50 s', '2.00×', '16.00×']);
    expect(
      size!
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(['19.1 MB', '69.2 MB', '31.7 MB', '0.60×', '2.18×']);
  });

  it('is unchanged without extra engines', () => {
    const t = renderSpeed(simcheck, naive, corpus);
    expect(t.split('\n')[0]!.trim().split(/\s+/)).toEqual(['simcheck', 'target', 'naive', 'simcheck/naive']);
  });

  it('reports why simcheck-pg did not run and keeps the others', () => {
    const json = {
      date: '2026-11-22T04:00:00.000Z',
      runDir: '',
      commit: 'abc',
      machine: { cpus: 2, cpu: 'x', memory: 2 ** 34, node: 'v24' },
      args: [],
      testSet: {
        seed: 1,
        mode: 'quick',
        dir: '',
        docs: 21,
        chars: 250000,
        cases: 253,
        leakChars: 0,
        libraryRecords: 15462,
        libraryChars: 3.28e6,
        corpusRecords: 18190,
        corpusChars: 3.85e6,
        speedThesis: 'mixed-01',
        speedThesisChars: 30004,
        speedThesisPlantedRate: 0.128,
        synonymStats: { words: 0, replaced: 0 },
      },
      engines: [
        simcheck,
        { name: 'simcheck-pg', errors: ['not run, no PostgreSQL: connect ECONNREFUSED'] },
        naive,
      ],
      table: '',
    };
    const t = renderAll(json);
    expect(t).toContain('simcheck/naive');
    expect(t).not.toContain('simcheck-pg/naive');
    expect(t).toContain('! simcheck-pg: not run, no PostgreSQL: connect ECONNREFUSED');
  });
});

// One build and one check on a real server: only when DATABASE_URL names one (as scripts/test-pg.sh does).
const serverUrl = process.env.DATABASE_URL;
describe.skipIf(!serverUrl)('simcheck-pg on the server in DATABASE_URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'simcheck-pg-bench-'));
  const schema = schemaName(`t${process.pid}_${Date.now().toString(36)}`, 'engine');
  afterAll(async () => {
    await dropSchema(serverUrl!, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes into its own schema and reports what the local index reports', async () => {
    const { libraryEngine } = await import('../engines/library.ts');
    const { pgEngine } = await import('../engines/pg.ts');
    const lib = join(dir, 'lib.jsonl');
    writeFileSync(
      lib,
      LIBRARY.map((d) => JSON.stringify({ id: d.id, title: d.title, text: d.text })).join('\n'),
    );
    const pgDir = join(dir, 'pg');
    mkdirSync(pgDir);
    await createSchema(serverUrl!, schema);
    writePgTarget(pgDir, { url: urlWithSearchPath(serverUrl!, schema), schema });
    await pgEngine.build(lib, pgDir);
    await libraryEngine.build(lib, join(dir, 'local'));
    expect(await schemaTablesSize(serverUrl!, schema)).toBeGreaterThan(0);
    const text = `绪论。${SRC_SOIL}研究方法。${SRC_EDUCATION.replace('教学方法单一', '教学手段单一')}`;
    const [a, b] = [await libraryEngine.open(join(dir, 'local')), await pgEngine.open(pgDir)];
    try {
      const [ra, rb] = [await a.check(text), await b.check(text)];
      expect(ra.matches.length).toBeGreaterThan(0);
      expect(rb).toEqual(ra);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});
