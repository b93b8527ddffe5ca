/**
 * npm run bench:reduction — 降重 on thesis-like documents with planted copies (the engine
 * benchmark's test set, packages/simcheck/bench/generate.ts): for each document the engine's
 * similarity rate before and after rewriting its flagged paragraphs, the share of facts (numbers,
 * units, citation marks, quotations, formulas, terms) kept — which must be 100% — and the time per
 * 10,000 characters. The rewriter is the LLM sandbox's (reduction.sandbox.ts, the same function the
 * sandbox answers with) unless LLM_BASE_URL and LLM_MODEL name a real endpoint (docs/api/reduction.md).
 * Every rewrite passes the job's own check (rewriteProblems) or the paragraph is kept.
 * Options: --docs=N (default 8), --seed=N. Last line: `reduction: rate_before=… rate_after=… facts_kept=…`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex, checkText, type LibraryDocument } from '@kyfw/simcheck';
import { generateTestSet } from '../../../packages/simcheck/bench/generate.ts';
import { readJsonLines } from '../../../packages/simcheck/bench/lib/io.ts';
import { factsOf } from '../src/modules/reduction/reduction.facts.ts';
import { REWRITE_TASK, rewriteMessages } from '../src/modules/reduction/reduction.prompts.ts';
import { ATTEMPTS_PER_PARAGRAPH, factProblems } from '../src/modules/reduction/reduction.rewrite.ts';
import { sandboxRewrite } from '../src/modules/reduction/reduction.sandbox.ts';
import { isRewritable } from '../src/modules/reduction/reduction.service.ts';
import { createOpenAiLlmProvider } from '../src/providers/llm/index.ts';

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

async function rewriteParagraph(text: string): Promise<{ after: string; kept: boolean }> {
  let lost: string[] = [];
  for (let attempt = 1; attempt <= ATTEMPTS_PER_PARAGRAPH; attempt += 1) {
    const after = llm
      ? (
          await llm.chat({
            task: REWRITE_TASK,
            messages: rewriteMessages('reduction', text.trim(), lost.length ? lost.join('、') : undefined),
          })
        ).text.trim()
      : sandboxRewrite(text.trim(), false);
    lost = factProblems(text, after).map((p) => p.message);
    if (lost.length === 0) return { after, kept: false };
  }
  return { after: text, kept: true };
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
    const { after, kept } = await rewriteParagraph(original);
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
