/**
 * `npm run bench:engine` — evaluation (PAN measures on a generated test set, paraphrase pairs) and
 * speed of the similarity engine, side by side with the naive 13-gram baseline.
 *
 *   --quick            small test set, 300 pairs per paraphrase set, 3 timing repeats (smoke run)
 *   --scale            also the scale run (synthetic library of --scale-docs documents, default 200000)
 *   --scale-docs=N     size of the synthetic library (default 200000; 20000 with --quick)
 *   --engines=a,b      engines to run (naive, simcheck, simcheck-cli); default naive + the real
 *                      engine's library API (or its CLI when the library entry is not there)
 *   --seed=N           test-set seed (default 20240601)
 *   --repeat=N         timing repeats (default 5)
 *   --no-eval --no-pairs --no-speed   skip parts
 *   --keep-indexes     keep this run's indexes (default: deleted at the end; outputs stay in .bench/runs/)
 *   --render=<results.json> [--rescore]  print the table of an earlier run again (--rescore: score
 *                      the saved per-document outputs in .bench/eval-*.json again)
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
import { generateTestSet, type TestSet } from './generate.ts';
import { dirSize, runJob } from './lib/child.ts';
import { type LibraryRecord, readJsonLines } from './lib/io.ts';
import { chunkPairs, loadPairSets, scorePairs, writePairLibrary } from './paraphrase.ts';
import { type BenchResults, type CheckTiming, type EngineRun, type Measured, renderAll } from './report.ts';
import { generateScaleLibrary, type ScaleLibrary } from './scale.ts';
import { type DocResult, scoreTestSet } from './score.ts';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

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
  return real ? [real, 'naive'] : ['naive'];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function build(engine: string, library: string, indexDir: string): Promise<Measured> {
  rmSync(indexDir, { recursive: true, force: true });
  mkdirSync(join(indexDir, '..'), { recursive: true });
  const r = await runJob({ op: 'build', engine, library, indexDir }, { log: (s) => process.stderr.write(s) });
  return { ms: r.ms, maxRss: r.maxRss, bytes: dirSize(indexDir) };
}

async function timeCheck(engine: string, indexDir: string, file: string): Promise<CheckTiming> {
  const r = await runJob({ op: 'check', engine, indexDir, file, repeat });
  return {
    medianMs: median(r.times!),
    times: r.times!,
    openMs: r.openMs!,
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
        run.eval = { build: b, scores: scoreTestSet(set, results), evalMs: r.ms, maxRss: r.maxRss };
      });
    }
    if (!flag('no-speed')) {
      await attempt(run, 'speed', async () => {
        log(`${e}: indexing the staged corpus (${set.corpusRecords} records)`);
        const corpusIndex = idx(e, 'corpus');
        const corpusBuild = await build(e, set.corpusPath, corpusIndex);
        log(`${e}: checking the ${set.speedThesis} thesis ×${repeat}`);
        const corpusCheck = await timeCheck(e, corpusIndex, thesis);
        let libraryCheck: CheckTiming | undefined;
        if (run.eval) libraryCheck = await timeCheck(e, libIndex, thesis);
        run.speed = { corpusBuild, corpusCheck, libraryCheck };
        if (e !== 'naive' && realEngineState().cli) {
          await attempt(run, 'one CLI check', async () => {
            const t0 = performance.now();
            await runCli(['check', '--index', corpusIndex, '--json', thesis]);
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
        run.scale = { build: b, check: await timeCheck(run.name, dir, thesis) };
        if (!flag('keep-scale-index')) rmSync(dir, { recursive: true, force: true });
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
    engines: runs,
    table: '',
  };
  json.table = renderAll(json);
  process.stdout.write(`${json.table}\n`);
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(OUT, `results-${stamp}.json`), JSON.stringify(json, null, 2));
  writeFileSync(join(OUT, 'latest.json'), JSON.stringify(json, null, 2));
  log(`written .bench/results-${stamp}.json`);
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
    }
  }
  process.stdout.write(`${renderAll(json)}\n`);
} else {
  await main();
}
