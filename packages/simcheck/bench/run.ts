/**
 * `npm run bench:engine` — evaluation (PAN measures on a generated test set, paraphrase pairs) and
 * speed of the similarity engine, side by side with the naive 13-gram baseline.
 *
 *   --quick            small test set, 300 pairs per paraphrase set, 3 timing repeats (smoke run)
 *   --scale            also the scale run (synthetic library of --scale-docs documents, default 200000)
 *   --scale-docs=N     size of the synthetic library (default 200000; 20000 with --quick)
 *   --engines=a,b      engines to run (naive, simcheck, simcheck-pg, simcheck-cli); default naive + the
 *                      real engine's library API (or its CLI when the library entry is not there),
 *                      + simcheck-pg when DATABASE_URL is set or --pg / --database-url= is given
 *   --pg               add simcheck-pg (the library API on the PostgreSQL index, createPgIndex) to the
 *                      default engines. Its server: --database-url=<url>, else DATABASE_URL, else a
 *                      throwaway server started here like scripts/test-pg.sh (Debian's postgresql via
 *                      scripts/ensure-postgres.sh, initdb in a temp folder, a free loopback port, fsync
 *                      off) and stopped at the end. Each build gets a schema of its own
 *                      (simcheck_bench_<run>_<what>), dropped at the end; size = pg_total_relation_size
 *                      of its tables. Without a server the run goes on without it and says why.
 *   --database-url=<url>  the PostgreSQL server for simcheck-pg (implies --pg)
 *   --seed=N           test-set seed (default 20240601)
 *   --repeat=N         timing repeats (default 5)
 *   --no-eval --no-pairs --no-speed   skip parts
 *   --keep-indexes     keep this run's indexes (default: deleted at the end; outputs stay in .bench/runs/);
 *                      simcheck-pg's schemas too (a throwaway server is then left running: the log
 *                      says how to stop it)
 *   --render=<results.json> [--rescore]  print the table of an earlier run again (--rescore: score
 *                      the saved per-document outputs in .bench/eval-*.json again)
 * The speed part also times extraction of hostile .docx files (extract.ts).
 * Progress goes to stderr, the table to stdout, everything to .bench/results-<stamp>.json and
 * .bench/latest.json.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { runCli } from './engines/cli.ts';
import { realEngineState } from './engines/registry.ts';
import type { CheckOutput } from './engines/types.ts';
import { measureHostileFiles } from './extract.ts';
import { generateTestSet, type TestSet } from './generate.ts';
import { dirSize, runJob } from './lib/child.ts';
import { compareOutputs } from './lib/compare.ts';
import { type LibraryRecord, readJsonLines } from './lib/io.ts';
import {
  acquirePgServer,
  analyzeSchema,
  createSchema,
  dropSchema,
  type PgServer,
  readPgTarget,
  schemaName,
  schemaTablesSize,
  urlWithSearchPath,
  writePgTarget,
} from './lib/pg.ts';
import { chunkPairs, loadPairSets, scorePairs, writePairLibrary } from './paraphrase.ts';
import { type BenchResults, type CheckTiming, type EngineRun, type Measured, renderAll } from './report.ts';
import { generateScaleLibrary, type ScaleLibrary } from './scale.ts';
import { type DocResult, scoreByCaseType, scoreTestSet } from './score.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => {
  const a = argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? undefined : a.slice(name.length + 3);
};

const quick = flag('quick');
const scale = flag('scale');
const seed = Number(opt('seed') ?? 20240601);
const repeat = Number(opt('repeat') ?? (quick ? 3 : 5));
const scaleDocs = Number(opt('scale-docs') ?? (quick ? 20000 : 200000));
const ROOT = new URL('../../../', import.meta.url).pathname;
const OUT = join(ROOT, '.bench');
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

function chooseEngines(): string[] {
  const explicit = opt('engines');
  if (explicit) return explicit.split(',');
  const state = realEngineState();
  const real = state.library ? 'simcheck' : state.cli ? 'simcheck-cli' : undefined;
  if (!real)
    log('the real engine is not in this working tree yet (no src/index.ts, no src/cli/main.ts): naive only');
  // the PostgreSQL backend: asked for, or a server is there (DATABASE_URL)
  const pg =
    state.library && (flag('pg') || opt('database-url') !== undefined || Boolean(process.env.DATABASE_URL));
  return [...(real ? [real] : []), ...(pg ? ['simcheck-pg'] : []), 'naive'];
}

/** simcheck-pg's server and the schemas this run made on it (one per build). */
const pgState: { server?: PgServer; schemas: Set<string>; tag: string } = {
  schemas: new Set(),
  tag: `${process.pid}_${Date.now().toString(36)}`,
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function build(engine: string, library: string, indexDir: string): Promise<Measured> {
  rmSync(indexDir, { recursive: true, force: true });
  mkdirSync(join(indexDir, '..'), { recursive: true });
  if (engine === 'simcheck-pg') {
    // a fresh schema for this build; the folder only holds where it is (pg-target.json)
    const server = pgState.server;
    if (!server) throw new Error('no PostgreSQL server');
    const schema = schemaName(pgState.tag, indexDir.split('/').pop()!);
    await createSchema(server.url, schema);
    pgState.schemas.add(schema);
    mkdirSync(indexDir, { recursive: true });
    writePgTarget(indexDir, { url: urlWithSearchPath(server.url, schema), schema });
  }
  const r = await runJob({ op: 'build', engine, library, indexDir }, { log: (s) => process.stderr.write(s) });
  if (engine === 'simcheck-pg') {
    const { schema } = readPgTarget(indexDir);
    const bytes = await schemaTablesSize(pgState.server!.url, schema);
    // planner statistics now rather than when autovacuum gets to it (not in the index time)
    await analyzeSchema(pgState.server!.url, schema);
    return { ms: r.ms, maxRss: r.maxRss, bytes };
  }
  return { ms: r.ms, maxRss: r.maxRss, bytes: dirSize(indexDir) };
}

/** Drop an index of simcheck-pg (its schema); nothing for the other engines. */
async function dropPgIndex(indexDir: string): Promise<void> {
  if (!pgState.server) return;
  let schema: string;
  try {
    schema = readPgTarget(indexDir).schema;
  } catch {
    return;
  }
  await dropSchema(pgState.server.url, schema);
  pgState.schemas.delete(schema);
}

/** At the end: drop the schemas (unless --keep-indexes) and stop a throwaway server. */
async function releasePg(): Promise<void> {
  const server = pgState.server;
  if (!server) return;
  if (flag('keep-indexes')) {
    if (pgState.schemas.size > 0)
      log(`simcheck-pg: kept schemas ${[...pgState.schemas].join(', ')} (${server.url})`);
    if (server.throwaway) log(`PostgreSQL left running at ${server.url}; stop it with: ${server.detach()}`);
    return;
  }
  for (const schema of pgState.schemas) {
    try {
      await dropSchema(server.url, schema);
    } catch (err) {
      log(`simcheck-pg: could not drop schema ${schema}: ${(err as Error).message}`);
    }
  }
  pgState.schemas.clear();
  await server.stop();
}

async function timeCheck(
  engine: string,
  indexDir: string,
  file: string,
  warmFile?: string,
): Promise<CheckTiming> {
  const r = await runJob({ op: 'check', engine, indexDir, file, repeat, ...(warmFile ? { warmFile } : {}) });
  return {
    medianMs: median(r.times!),
    times: r.times!,
    openMs: r.openMs!,
    ...(r.coldMs !== undefined ? { coldMs: r.coldMs } : {}),
    maxRss: r.maxRss,
    chars: r.output?.chars ?? 0,
    ratio: r.output?.ratio,
  };
}

async function main(): Promise<void> {
  const engines = chooseEngines();
  const started = new Date();
  mkdirSync(OUT, { recursive: true });
  log(`engines: ${engines.join(', ')}; ${quick ? 'quick' : 'full'} run${scale ? ' with scale' : ''}`);
  const set: TestSet = await generateTestSet({ seed, quick, outRoot: OUT, log });
  const thesis = join(set.dir, `docs/${set.speedThesis}.txt`);
  const runs: EngineRun[] = engines.map((name) => ({ name, errors: [] }));
  const pgRun = runs.find((r) => r.name === 'simcheck-pg');
  if (pgRun) {
    try {
      if (!realEngineState().library) throw new Error('the engine has no library entry (src/index.ts)');
      pgState.server = await acquirePgServer({
        flagUrl: opt('database-url'),
        envUrl: process.env.DATABASE_URL,
        log,
      });
    } catch (err) {
      pgRun.errors.push(
        `not run, no PostgreSQL: ${(err as Error).message.split('\n').slice(0, 3).join(' | ')}`,
      );
      log(`simcheck-pg: not run: ${(err as Error).message}`);
    }
  }
  try {
    await measure(set, thesis, runs, started);
  } finally {
    await releasePg();
  }
}

async function measure(set: TestSet, thesis: string, runs: EngineRun[], started: Date): Promise<void> {
  // The warm-up document of the check timings: another thesis of the set (the same for every engine).
  const warmDoc = set.docs.find((d) => d.id !== set.speedThesis && d.type === 'mixed') ?? set.docs[0]!;
  const warmFile = join(set.dir, warmDoc.file);
  // everything of this run in its own folder: several people may run the benchmark at once
  const runDir = join(OUT, 'runs', `${started.toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  const idx = (engine: string, what: string) => join(runDir, 'indexes', engine, what);
  const attempt = async (run: EngineRun, what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      const msg = `${what}: ${(err as Error).message.split('\n').slice(0, 6).join(' | ')}`;
      run.errors.push(msg);
      log(`${run.name} ${msg}`);
    }
  };

  for (const run of runs) {
    const e = run.name;
    if (e === 'simcheck-pg' && !pgState.server) continue; // said why in its errors
    const libIndex = idx(e, `library-s${seed}-${set.mode}`);
    if (!flag('no-eval')) {
      await attempt(run, 'evaluation', async () => {
        log(`${e}: indexing the evaluation library (${set.libraryRecords} records)`);
        const b = await build(e, set.libraryPath, libIndex);
        log(`${e}: checking ${set.docs.length} documents`);
        const outFile = join(runDir, `eval-${e}.json`);
        const r = await runJob({
          op: 'eval',
          engine: e,
          indexDir: libIndex,
          truth: join(set.dir, 'truth.json'),
          out: outFile,
        });
        const results = JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, DocResult>;
        run.eval = {
          build: b,
          scores: scoreTestSet(set, results),
          byCaseType: scoreByCaseType(set, results),
          evalMs: r.ms,
          maxRss: r.maxRss,
        };
      });
    }
    if (!flag('no-speed')) {
      await attempt(run, 'speed', async () => {
        log(`${e}: indexing the staged corpus (${set.corpusRecords} records)`);
        const corpusIndex = idx(e, 'corpus');
        const corpusBuild = await build(e, set.corpusPath, corpusIndex);
        log(`${e}: checking the ${set.speedThesis} thesis ×${repeat}`);
        const corpusCheck = await timeCheck(e, corpusIndex, thesis, warmFile);
        let libraryCheck: CheckTiming | undefined;
        if (run.eval) libraryCheck = await timeCheck(e, libIndex, thesis, warmFile);
        run.speed = { corpusBuild, corpusCheck, libraryCheck };
        if (e !== 'naive' && realEngineState().cli) {
          await attempt(run, 'one CLI check', async () => {
            // simcheck-pg: the CLI on the same tables (--database-url with the schema's search_path)
            const target =
              e === 'simcheck-pg'
                ? ['--database-url', readPgTarget(corpusIndex).url]
                : ['--index', corpusIndex];
            const t0 = performance.now();
            await runCli(['check', ...target, '--json', thesis]);
            run.speed!.cliCheckMs = performance.now() - t0;
          });
        }
      });
    }
    if (!flag('no-pairs')) {
      await attempt(run, 'paraphrase pairs', async () => {
        const sets = loadPairSets(quick ? 300 : undefined);
        run.pairs = [];
        for (const ps of sets) {
          log(`${e}: paraphrase pairs ${ps.name} (${ps.pairs.length})`);
          const lib = join(runDir, `pairs-${ps.name}-${ps.pairs.length}.jsonl`);
          await writePairLibrary(ps, lib);
          const pairIndex = idx(e, `pairs-${ps.name}`);
          await build(e, lib, pairIndex);
          const chunks = chunkPairs(ps, e === 'simcheck-cli' ? 25 : 1);
          const inputs = join(runDir, `pairs-${ps.name}-inputs-${e}.json`);
          writeFileSync(inputs, JSON.stringify(chunks.texts));
          const out = join(runDir, `pairs-${ps.name}-out-${e}.json`);
          const r = await runJob({ op: 'pairs', engine: e, indexDir: pairIndex, inputs, out });
          run.pairs.push({
            ...scorePairs(ps, chunks, JSON.parse(readFileSync(out, 'utf8')) as CheckOutput[]),
            checkMs: r.ms - (r.openMs ?? 0),
          });
        }
      });
    }
  }

  let scaleLib: ScaleLibrary | undefined;
  if (scale) {
    log(`scale: generating ${scaleDocs} documents (cached in .bench/)`);
    const library: LibraryRecord[] = [];
    for await (const r of readJsonLines<LibraryRecord>(set.libraryPath)) library.push(r);
    scaleLib = await generateScaleLibrary({
      corpus: library,
      docs: scaleDocs,
      seed,
      outRoot: OUT,
      log,
    });
    for (const run of runs) {
      await attempt(run, 'scale', async () => {
        const dir = idx(run.name, `scale-${scaleDocs}`);
        log(`${run.name}: indexing the scale library (${(scaleLib!.chars / 1e6).toFixed(0)}M characters)`);
        const b = await build(run.name, scaleLib!.path, dir);
        log(`${run.name}: checking the thesis against the scale library ×${repeat}`);
        run.scale = { build: b, check: await timeCheck(run.name, dir, thesis, warmFile) };
        if (!flag('keep-scale-index')) {
          await dropPgIndex(dir);
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }

  const commit = (() => {
    try {
      const head = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
      const dirty = execSync('git status --porcelain -- packages/simcheck/src', { cwd: ROOT })
        .toString()
        .trim();
      return dirty ? `${head} + uncommitted engine changes` : head;
    } catch {
      return 'unknown';
    }
  })();
  const thesisDoc = set.docs.find((d) => d.id === set.speedThesis)!;
  compareBackends(runs, runDir);
  if (!flag('keep-indexes')) rmSync(join(runDir, 'indexes'), { recursive: true, force: true });
  const json: BenchResults = {
    date: started.toISOString(),
    runDir,
    commit,
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', memory: totalmem(), node: process.version },
    args: argv,
    testSet: {
      seed,
      mode: set.mode,
      dir: set.dir,
      docs: set.docs.length,
      chars: set.docs.reduce((a, d) => a + d.chars, 0),
      cases: set.docs.reduce((a, d) => a + d.cases.length, 0),
      leakChars: set.docs.reduce((a, d) => a + d.leakChars, 0),
      libraryRecords: set.libraryRecords,
      libraryChars: set.libraryChars,
      corpusRecords: set.corpusRecords,
      corpusChars: set.corpusChars,
      speedThesis: set.speedThesis,
      speedThesisChars: thesisDoc.chars,
      speedThesisPlantedRate: (thesisDoc.plagiarismChars + thesisDoc.quotedChars) / thesisDoc.chars,
      synonymStats: set.synonymStats,
    },
    scaleLibrary: scaleLib,
    postgres: pgState.server ? { source: pgState.server.source, version: pgState.server.version } : undefined,
    engines: runs,
    hostileFiles: flag('no-speed') ? undefined : await measureHostileFiles(repeat),
    table: '',
  };
  json.table = renderAll(json);
  process.stdout.write(`${json.table}\n`);
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(OUT, `results-${stamp}.json`), JSON.stringify(json, null, 2));
  writeFileSync(join(OUT, 'latest.json'), JSON.stringify(json, null, 2));
  log(`written .bench/results-${stamp}.json`);
}

/**
 * The real engine's other runs (simcheck-pg, simcheck-cli) against the first one: are the
 * per-document reports of the evaluation identical? (The two index backends are meant to be.)
 */
function compareBackends(runs: EngineRun[], runDir: string): void {
  const evalOf = (name: string) =>
    JSON.parse(readFileSync(join(runDir, `eval-${name}.json`), 'utf8')) as Record<string, DocResult>;
  const first = runs.find((r) => r.name !== 'naive' && r.eval);
  if (!first) return;
  for (const run of runs) {
    if (run === first || run.name === 'naive' || !run.eval) continue;
    try {
      run.eval.sameAs = compareOutputs(first.name, evalOf(run.name), evalOf(first.name));
      const c = run.eval.sameAs;
      log(`${run.name}: reports identical to ${first.name}'s on ${c.identical}/${c.total} documents`);
    } catch (err) {
      run.errors.push(`comparison with ${first.name}: ${(err as Error).message}`);
    }
  }
}

if (opt('render')) {
  const json = JSON.parse(readFileSync(opt('render')!, 'utf8')) as BenchResults;
  if (flag('rescore')) {
    // score the saved per-document outputs again (after a change to the scoring code)
    const set = JSON.parse(readFileSync(join(json.testSet.dir, 'truth.json'), 'utf8')) as TestSet;
    for (const run of json.engines) {
      if (!run.eval) continue;
      const file = join(json.runDir, `eval-${run.name}.json`);
      run.eval.scores = scoreTestSet(
        set,
        JSON.parse(readFileSync(file, 'utf8')) as Record<string, DocResult>,
      );
      run.eval.byCaseType = scoreByCaseType(
        set,
        JSON.parse(readFileSync(file, 'utf8')) as Record<string, DocResult>,
      );
    }
    compareBackends(json.engines, json.runDir);
  }
  process.stdout.write(`${renderAll(json)}\n`);
} else {
  await main();
}
