/**
 * Look at one document of the last evaluation: planted cases and the engine's matches side by side,
 * with the text, and flagged characters outside every planted case.
 *   npx node packages/simcheck/bench/inspect.ts <engine> <docId> [--results=.bench/results-….json]
 * (default: the last run, .bench/latest.json)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSet } from './generate.ts';
import type { BenchResults } from './report.ts';
import type { DocResult } from './score.ts';

const [engine = 'simcheck', docId = 'verbatim-01'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const OUT = new URL('../../../.bench/', import.meta.url).pathname;
const resultsFile =
  process.argv.find((a) => a.startsWith('--results='))?.slice(10) ?? join(OUT, 'latest.json');
const run = JSON.parse(readFileSync(resultsFile, 'utf8')) as BenchResults;
const set = JSON.parse(readFileSync(join(run.testSet.dir, 'truth.json'), 'utf8')) as TestSet;
const results = JSON.parse(readFileSync(join(run.runDir, `eval-${engine}.json`), 'utf8')) as Record<
  string,
  DocResult
>;
const doc = set.docs.find((d) => d.id === docId);
if (!doc) throw new Error(`no document ${docId}`);
const text = Array.from(readFileSync(join(set.dir, doc.file), 'utf8'));
const snip = (a: number, b: number) => JSON.stringify(text.slice(a, b).join('').slice(0, 60));
const out = results[docId]!.output;
console.log(
  `${docId}: ${doc.chars} chars, true plagiarism rate ${(doc.plagiarismChars / doc.chars).toFixed(4)}, reported ${out.ratioExcludingQuotes ?? out.ratio}`,
);
for (const c of doc.cases) {
  console.log(
    `CASE ${c.type} ${c.start}-${c.end} ← ${c.sourceId} ${c.sourceStart}-${c.sourceEnd} ${snip(c.start, c.end)}`,
  );
  for (const m of out.matches.filter((x) => x.start < c.end && c.start < x.end)) {
    const ok = m.sourceId === c.sourceId && m.sourceStart < c.sourceEnd && c.sourceStart < m.sourceEnd;
    console.log(
      `   ${ok ? '+' : '?'} ${m.kind} ${m.start}-${m.end} ← ${m.sourceId} ${m.sourceStart}-${m.sourceEnd}`,
    );
  }
}
for (const m of out.matches.filter((x) => !doc.cases.some((c) => x.start < c.end && c.start < x.end))) {
  console.log(
    `OUTSIDE ${m.kind} ${m.start}-${m.end} ← ${m.sourceId} ${m.sourceStart}-${m.sourceEnd} ${snip(m.start, m.end)}`,
  );
}
