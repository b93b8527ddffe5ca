/**
 * One measured job in its own process, so that process.resourceUsage().maxRSS is the peak memory of
 * exactly that build or check. Usage: node worker.ts '<job JSON>'; prints one line
 * "@@result <JSON>" on stdout at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getEngine } from './engines/registry.ts';
import type { CheckOutput } from './engines/types.ts';
import type { TestSet } from './generate.ts';

export type Job =
  | { op: 'build'; engine: string; library: string; indexDir: string }
  | { op: 'check'; engine: string; indexDir: string; file: string; repeat: number; warmFile?: string }
  | { op: 'eval'; engine: string; indexDir: string; truth: string; out: string }
  | { op: 'pairs'; engine: string; indexDir: string; inputs: string; out: string };

export interface JobResult {
  ms: number;
  /** peak resident set size of this process, bytes */
  maxRss: number;
  openMs?: number;
  /** The first check after opening (of `warmFile`, another document): a cold process. */
  coldMs?: number;
  times?: number[];
  output?: CheckOutput;
}

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function run(job: Job): Promise<JobResult> {
  const engine = await getEngine(job.engine);
  const t0 = performance.now();
  if (job.op === 'build') {
    await engine.build(job.library, job.indexDir);
    return { ms: performance.now() - t0, maxRss: peakRss() };
  }
  const checker = await engine.open(job.indexDir);
  const openMs = performance.now() - t0;
  try {
    if (job.op === 'check') {
      const text = readFileSync(job.file, 'utf8');
      // One check of another document first: the timed checks are those of a warm process, as in
      // the service (its worker threads check one paper after another); the cold one is reported too.
      let coldMs: number | undefined;
      if (job.warmFile) {
        const s = performance.now();
        await checker.check(readFileSync(job.warmFile, 'utf8'));
        coldMs = performance.now() - s;
      }
      const times: number[] = [];
      let output: CheckOutput | undefined;
      for (let i = 0; i < job.repeat; i++) {
        const s = performance.now();
        output = await checker.check(text);
        times.push(performance.now() - s);
      }
      const summary = output ? { ...output, matches: output.matches.slice(0, 0) } : undefined;
      return { ms: performance.now() - t0, openMs, coldMs, times, maxRss: peakRss(), output: summary };
    }
    if (job.op === 'eval') {
      const set = JSON.parse(readFileSync(job.truth, 'utf8')) as TestSet;
      const results: Record<string, { output: CheckOutput; ms: number }> = {};
      for (const d of set.docs) {
        const text = readFileSync(join(set.dir, d.file), 'utf8');
        const s = performance.now();
        const output = await checker.check(text);
        results[d.id] = { output, ms: performance.now() - s };
      }
      writeFileSync(job.out, JSON.stringify(results));
      return { ms: performance.now() - t0, openMs, maxRss: peakRss() };
    }
    // pairs: a JSON array of texts to check; outputs in the same order
    const inputs = JSON.parse(readFileSync(job.inputs, 'utf8')) as string[];
    const outputs: CheckOutput[] = [];
    for (const text of inputs) outputs.push(await checker.check(text));
    writeFileSync(job.out, JSON.stringify(outputs));
    return { ms: performance.now() - t0, openMs, maxRss: peakRss() };
  } finally {
    await checker.close();
  }
}

if (import.meta.main) {
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  const result = await run(job);
  process.stdout.write(`\n@@result ${JSON.stringify(result)}\n`);
}
