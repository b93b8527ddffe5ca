/**
 * npm run bench:reduction — 降重 measured three ways.
 *
 * 1. The rate: thesis-like documents with planted copies (the engine benchmark's test set,
 *    packages/simcheck/bench/generate.ts): the engine's similarity rate before and after rewriting
 *    the flagged paragraphs, the share of facts kept, the time per 10,000 characters. The rewriter
 *    is the LLM sandbox's (reduction.sandbox.ts) unless LLM_BASE_URL and LLM_MODEL name a real
 *    endpoint (then through the job's own checked loop, rewriteParagraph). Line
 *    `reduction: rate_before=… rate_after=… facts_kept=…`.
 * 2. False rejections: the rewrite checks (reduction.facts.ts) on paraphrase pairs of
 *    ../shared/data/paraphrase (research-only: measured here, never shipped) and on CSL abstracts
 *    through the sandbox rewriter; the share rejected by any rule and by the judgement rules alone
 *    (direction, negation, dropped, added sentence), per rule. Line `false-rejections: …`.
 * 3. The fault modes: every flow (降重 text, 降重 .docx, 降AIGC) through the whole app (routes, job,
 *    orders, payment and LLM sandboxes, PGlite) against each content fault of the LLM sandbox, once
 *    and always (test/reduction/fault-flows.ts, the same runs the tests assert). The last line:
 *    `ai-faults: flows=… delivered_bad=… charged_for_nothing=…`.
 * Options: --docs=N (default 8), --seed=N, --pairs=N (pairs per set, default 2000), --no-faults.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildIndex, checkText, type LibraryDocument } from '@kyfw/simcheck';
import { generateTestSet } from '../../../packages/simcheck/bench/generate.ts';
import { readJsonLines } from '../../../packages/simcheck/bench/lib/io.ts';
import { checkRewrite, factsOf } from '../src/modules/reduction/reduction.facts.ts';
import { factProblems, rewriteParagraph } from '../src/modules/reduction/reduction.rewrite.ts';
import { sandboxRewrite } from '../src/modules/reduction/reduction.sandbox.ts';
import { isRewritable } from '../src/modules/reduction/reduction.service.ts';
import { createOpenAiLlmProvider, type LlmContentFaultKind } from '../src/providers/llm/index.ts';
import { buildCheckApp } from '../test/check/check-helper.ts';
import { runFaultMatrix } from '../test/llm/fault-matrix.ts';
import {
  FAULT_APP_ENV,
  REDUCTION_FAULTS,
  REDUCTION_FLOWS,
  type ReductionFlow,
  runFaultFlow,
} from '../test/reduction/fault-flows.ts';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DOCS = arg('docs', 8);
const SEED = arg('seed', 20240601);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

const real = process.env.LLM_BASE_URL && process.env.LLM_MODEL;
const llm = real
  ? createOpenAiLlmProvider({
      kind: 'openai',
      baseUrl: process.env.LLM_BASE_URL!.replace(/\/+$/, ''),
      apiKey: process.env.LLM_API_KEY ?? null,
      model: process.env.LLM_MODEL!,
      responseFormat: 'none',
      timeoutMs: 120_000,
      maxRetries: 3,
      retryBaseMs: 1_000,
      concurrency: 2,
      structuredRepairs: 1,
      priceInput: 0,
      priceOutput: 0,
    })
  : null;

async function rewriteOne(text: string): Promise<{ after: string; kept: boolean }> {
  if (llm) {
    const out = await rewriteParagraph(llm, { kind: 'reduction', paragraph: text });
    return out.ok ? { after: out.text, kept: false } : { after: text, kept: true };
  }
  const after = sandboxRewrite(text.trim(), false);
  return factProblems(text, after).length === 0 ? { after, kept: false } : { after: text, kept: true };
}

const set = await generateTestSet({ seed: SEED, quick: true, outRoot: join(process.cwd(), '.bench'), log });
const docs = set.docs
  .filter((d) => d.type !== 'clean' && d.type !== 'short' && d.cases.length > 0)
  .slice(0, DOCS);
const work = mkdtempSync(join(tmpdir(), 'kyfw-bench-reduction-'));
log(`index: ${set.libraryRecords} library records`);
const index = await buildIndex(join(work, 'index'), readJsonLines<LibraryDocument>(set.libraryPath));

let charsBefore = 0;
let copiedBefore = 0;
let charsAfter = 0;
let copiedAfter = 0;
let factsTotal = 0;
let factsKept = 0;
let rewriteMs = 0;
let rewrittenChars = 0;
let keptParagraphs = 0;
console.log(
  `rewriter: ${real ? `${process.env.LLM_MODEL} at ${process.env.LLM_BASE_URL}` : 'LLM sandbox (template substitutions)'}`,
);
console.log('document            type          chars  rate_before  rate_after  paragraphs  kept');
for (const doc of docs) {
  const text = readFileSync(join(set.dir, doc.file), 'utf8');
  const before = await checkText(index, text);
  const lines = text.split('\n');
  let at = 0;
  const spans = lines.map((line) => {
    const s = { start: at, end: at + Array.from(line).length };
    at = s.end + 1;
    return s;
  });
  const flagged = new Set<number>();
  for (const m of before.matches) {
    if (m.kind === 'quoted') continue;
    spans.forEach((s, i) => {
      if (m.start < s.end && m.end > s.start && isRewritable(lines[i]!)) flagged.add(i);
    });
  }
  const out = [...lines];
  const t0 = performance.now();
  for (const i of flagged) {
    const original = lines[i]!;
    const { after, kept } = await rewriteOne(original);
    if (kept) keptParagraphs += 1;
    out[i] = after;
    rewrittenChars += original.length;
    const facts = factsOf(original);
    factsTotal += facts.length;
    factsKept +=
      facts.length - (kept ? 0 : factProblems(original, after).filter((p) => p.rule !== 'length').length);
  }
  rewriteMs += performance.now() - t0;
  const after = await checkText(index, out.join('\n'));
  charsBefore += before.chars;
  copiedBefore += before.copiedChars;
  charsAfter += after.chars;
  copiedAfter += after.copiedChars;
  console.log(
    `${doc.id.padEnd(19)} ${doc.type.padEnd(12)} ${String(before.chars).padStart(6)}  ${(before.ratio * 100).toFixed(1).padStart(10)}%  ${(after.ratio * 100).toFixed(1).padStart(9)}%  ${String(flagged.size).padStart(10)}  ${String(keptParagraphs).padStart(4)}`,
  );
}
await index.close();
rmSync(work, { recursive: true, force: true });
const rateBefore = copiedBefore / Math.max(1, charsBefore);
const rateAfter = copiedAfter / Math.max(1, charsAfter);
const kept = factsTotal === 0 ? 1 : factsKept / factsTotal;
console.log(
  `time per 10,000 rewritten characters: ${((rewriteMs / Math.max(1, rewrittenChars)) * 10_000).toFixed(0)} ms; paragraphs kept as they were: ${keptParagraphs}`,
);
console.log(
  `reduction: rate_before=${(rateBefore * 100).toFixed(1)}% rate_after=${(rateAfter * 100).toFixed(1)}% facts_kept=${(kept * 100).toFixed(1)}%`,
);

// --- 2. false rejections -------------------------------------------------------------------------
const PAIRS = arg('pairs', 2000);
const dataDir = process.env.KYFW_DATA_DIR ?? join(import.meta.dirname, '../../../../shared/data');
const JUDGEMENT = new Set(['direction', 'negation', 'dropped']);
function judgementRule(v: { rule: string; detail: string }): boolean {
  return JUDGEMENT.has(v.rule) || (v.rule === 'added' && v.detail.startsWith('新增句子'));
}
function tsv(
  file: string,
  pick: (cols: string[]) => [string, string] | null,
  header = false,
): [string, string][] {
  const raw = readFileSync(join(dataDir, 'paraphrase', file));
  const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const out: [string, string][] = [];
  for (const line of text.split('\n').slice(header ? 1 : 0)) {
    const pair = pick(line.split('\t'));
    if (pair?.[0].trim() && pair[1].trim()) out.push(pair);
    if (out.length >= PAIRS) break;
  }
  return out;
}
const sets: [string, [string, string][]][] = [
  [
    'PAWS-X zh test, label 1 (translated Wikipedia)',
    tsv('pawsx_zh_test.tsv', (c) => (c[3]?.trim() === '1' ? [c[1]!, c[2]!] : null), true),
  ],
  [
    'STS-B zh train+dev+test, score 5',
    [
      ...tsv('sts_b_zh_train.tsv', (c) => (Number(c[2]) >= 5 ? [c[0]!, c[1]!] : null)),
      ...tsv('sts_b_zh_dev.tsv', (c) => (Number(c[2]) >= 5 ? [c[0]!, c[1]!] : null)),
      ...tsv('sts_b_zh_test.tsv', (c) => (Number(c[2]) >= 5 ? [c[0]!, c[1]!] : null)),
    ],
  ],
  [
    'LCQMC test, label 1 (questions)',
    tsv('lcqmc_test.tsv', (c) => (c[2]?.trim() === '1' ? [c[0]!, c[1]!] : null)),
  ],
  [
    'AFQMC dev, label 1 (questions)',
    tsv('afqmc_dev.tsv', (c) => (c[2]?.trim() === '1' ? [c[0]!, c[1]!] : null)),
  ],
];
const csl: [string, string][] = [];
for (const line of gunzipSync(readFileSync(join(dataDir, 'corpus/csl_papers.jsonl.gz')))
  .toString('utf8')
  .split('\n')) {
  if (!line) continue;
  const abstract = (JSON.parse(line) as { abstract?: string }).abstract ?? '';
  if (abstract.length < 80) continue;
  csl.push([abstract, sandboxRewrite(abstract, false).replace('【沙箱示例】', '')]);
  if (csl.length >= PAIRS) break;
}
sets.push(['CSL abstracts through the sandbox rewriter', csl]);
console.log('\nfalse rejections of legitimate rewrites (reduction.facts.ts):');
let judgedTotal = 0;
let judgedRejected = 0;
for (const [name, pairs] of sets) {
  let any = 0;
  let judgement = 0;
  const byRule = new Map<string, number>();
  for (const [a, b] of pairs) {
    const v = checkRewrite(a, b);
    if (v.length > 0) any += 1;
    if (v.some(judgementRule)) judgement += 1;
    for (const rule of new Set(v.map((x) => x.rule))) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  }
  judgedTotal += pairs.length;
  judgedRejected += judgement;
  const pct = (n: number) => `${((n / Math.max(1, pairs.length)) * 100).toFixed(1)}%`;
  console.log(
    `  ${name}: pairs=${pairs.length} rejected=${pct(any)} judgement_rules=${pct(judgement)} by_rule: ${[
      ...byRule,
    ]
      .sort((x, y) => y[1] - x[1])
      .map(([r, n]) => `${r} ${pct(n)}`)
      .join(', ')}`,
  );
}
console.log(
  `false-rejections: judgement_rules=${((judgedRejected / Math.max(1, judgedTotal)) * 100).toFixed(1)}% over ${judgedTotal} pairs (name/number/literal rejections of translated pairs are real surface changes)`,
);

// --- 3. the fault modes ----------------------------------------------------------------------------
if (!process.argv.includes('--no-faults')) {
  const app = await buildCheckApp({ env: FAULT_APP_ENV });
  await runFaultMatrix({
    flows: REDUCTION_FLOWS,
    faults: REDUCTION_FAULTS,
    run: (flow, fault, persistent) =>
      runFaultFlow(app, flow as ReductionFlow, fault as LlmContentFaultKind, persistent),
    summary: (runs) => {
      const delivered = runs.reduce((n, r) => n + r.delivered, 0);
      return `paragraphs_delivered=${delivered} paragraphs_kept_and_refunded=${runs.length * 2 - delivered}`;
    },
  });
  await app.close();
}
