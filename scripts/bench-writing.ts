// npm run bench:writing — the AI writer's guarantees, measured through the LLM sandbox over
// loopback (the real adapter, the real section prompts, the citation validator and the .docx
// writer): 20 drafts of ~10,000 characters, every third one written by a lying model (the sandbox's
// phantomCitations fault cites sources the prompt never gave). Prints per-draft figures and ends
// with `writing: drafts=… unresolved_citations=… budget_within_15pct=… copy_ratio_max=…` (the AIGC
// index is on the line before it: `aigc_index_mean=…`). Then the fault modes (below) end the output
// with `ai-faults: flows=… delivered_bad=… charged_for_nothing=…`.
// Prices: LLM_PRICE_INPUT / LLM_PRICE_OUTPUT (yuan per million tokens; default DeepSeek's 2 / 8).
// Each draft's body is checked by our similarity engine (@kyfw/simcheck) against a library of the
// demo corpus's first LIBRARY_RECORDS records (title + abstract; the drafts' sources are among them):
// its 总文字复制比, and by our AIGC detector (@kyfw/aigc, shipped model): its index, reported as is
// (the sandbox's template text is not model writing, so the index says nothing about a real LLM).
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { detectAigc } from '@kyfw/aigc';
import { buildIndex, checkText, type LibraryDocument } from '@kyfw/simcheck';
import Fastify from 'fastify';
import { unzipSync } from 'fflate';
import type { Source } from '../apps/server/src/modules/writing/references.ts';
import { writeCheckedSection } from '../apps/server/src/modules/writing/writing.checked.ts';
import { totalRemoved } from '../apps/server/src/modules/writing/writing.citations.ts';
import { renderWritingDocx } from '../apps/server/src/modules/writing/writing.docx.ts';
import { leavesOf } from '../apps/server/src/modules/writing/writing.jobs.ts';
import { outlineMessages, sectionMessages } from '../apps/server/src/modules/writing/writing.prompts.ts';
import type { Writing, WrittenSection } from '../apps/server/src/modules/writing/writing.repo.ts';
import { outlineSuggestion } from '../apps/server/src/modules/writing/writing.schemas.ts';
import { fitOutlineToTarget, normalizeOutline } from '../apps/server/src/modules/writing/writing.service.ts';
import {
  createLlmSandbox,
  createOpenAiLlmProvider,
  LLM_SANDBOX_PATH,
  registeredSandboxTemplates,
  SANDBOX_API_KEY,
  SANDBOX_MODEL,
} from '../apps/server/src/providers/llm/index.ts';
import '../apps/server/src/modules/writing/writing.sandbox.ts';
import { buildCheckApp, seedLibrary } from '../apps/server/test/check/check-helper.ts';
import { runFaultMatrix } from '../apps/server/test/llm/fault-matrix.ts';
import {
  FAULT_LIBRARY,
  runFlow,
  WRITING_FAULTS,
  WRITING_FLOWS,
  type WritingFault,
  type WritingFlow,
} from '../apps/server/test/writing/fault-flows.ts';

const DRAFTS = 20;
const TARGET = 10_000;
const priceInput = Number(process.env.LLM_PRICE_INPUT ?? 2);
const priceOutput = Number(process.env.LLM_PRICE_OUTPUT ?? 8);
// The staged corpus beside the repository (KYFW_CORPUS overrides, e.g. from a git worktree).
// The shared data sits beside the repository (../shared): /work/shared for /work/main, and the
// /work/wt/shared link for a worktree in /work/wt.
const corpus =
  process.env.KYFW_CORPUS ??
  path.resolve(import.meta.dirname, '../../shared/data/corpus/csl_papers.jsonl.gz');

const LIBRARY_RECORDS = 500;

/** The first records of the demo corpus: the library to compare with, and sources (title only, as the catalogue keeps). */
async function demoCorpus(
  count: number,
): Promise<{ sources: Omit<Source, 'n'>[]; library: LibraryDocument[] }> {
  const sources: Omit<Source, 'n'>[] = [];
  const library: LibraryDocument[] = [];
  const source = (title: string): Omit<Source, 'n'> => ({
    title,
    authors: ['佚名'],
    year: 2020,
    source: 'CSL',
    type: 'J',
    origin: 'library',
  });
  try {
    if (!existsSync(corpus)) throw new Error(`no corpus at ${corpus}`);
    const lines = createInterface({ input: createReadStream(corpus).pipe(createGunzip()) });
    for await (const line of lines) {
      const r = JSON.parse(line) as { id: number; title: string; abstract?: string };
      sources.push(source(r.title));
      library.push({ id: `csl-${r.id}`, title: r.title, text: `${r.title}\n${r.abstract ?? ''}` });
      if (sources.length >= count) break;
    }
  } catch {
    for (let i = 0; sources.length < count; i += 1) sources.push(source(`示例文献${i + 1}`));
  }
  return { sources, library };
}

const sandbox = createLlmSandbox({ templates: registeredSandboxTemplates });
const server = Fastify();
await server.register(sandbox.routes, { prefix: LLM_SANDBOX_PATH });
const origin = await server.listen({ host: '127.0.0.1', port: 0 });
const llm = createOpenAiLlmProvider({
  kind: 'sandbox',
  baseUrl: `${origin}${LLM_SANDBOX_PATH}/v1`,
  apiKey: SANDBOX_API_KEY,
  model: SANDBOX_MODEL,
  responseFormat: 'json_schema',
  timeoutMs: 60_000,
  maxRetries: 3,
  retryBaseMs: 10,
  concurrency: 4,
  structuredRepairs: 2,
  priceInput,
  priceOutput,
});
const demo = await demoCorpus(LIBRARY_RECORDS);
const pool = demo.sources.slice(0, 60);
const work = mkdtempSync(path.join(tmpdir(), 'kyfw-bench-writing-'));
const index = await buildIndex(path.join(work, 'index'), demo.library);
console.log(`library: ${demo.library.length} records of the demo corpus (title + abstract)`);
let copyRatioMax = 0;
let aigcSum = 0;

let unresolved = 0;
let removedTotal = 0;
let sections = 0;
let withinBudget = 0;
let chars = 0;
let promptTokens = 0;
let completionTokens = 0;
let cost = 0;
const started = performance.now();
for (let d = 0; d < DRAFTS; d += 1) {
  const liar = d % 3 === 2;
  const sources: Source[] = pool.slice((d * 3) % 48, ((d * 3) % 48) + 12).map((s, i) => ({ ...s, n: i + 1 }));
  const facts = {
    area: 'dissertation' as const,
    topic: `基准课题${d + 1}`,
    title: `基准课题${d + 1}的现状与对策研究`,
    discipline: '管理学',
    degree: '本科',
    language: 'zh' as const,
    targetWords: TARGET,
    requirements: '',
  };
  const proposed = await llm.structured({
    task: 'writing.outline',
    messages: outlineMessages(facts),
    schema: outlineSuggestion,
    schemaName: 'outline',
  });
  const outline = fitOutlineToTarget(normalizeOutline(proposed.value.chapters), TARGET);
  const leaves = leavesOf(outline);
  if (liar) sandbox.setFaults({ phantomCitations: leaves.length });
  const written: WrittenSection[] = [];
  for (const leaf of leaves) {
    // The job's own path: every check of writing.checked.ts, regenerating (bounded) what fails.
    const r = await writeCheckedSection({
      llm,
      task: 'writing.section',
      messages: sectionMessages(
        facts,
        { ...leaf, wordCount: leaf.item.wordCount, outline, before: written },
        sources,
      ),
      wordCount: leaf.item.wordCount,
      language: 'zh',
      sources,
      userId: 'bench',
      orderNo: null,
    });
    promptTokens += r.usage.promptTokens;
    completionTokens += r.usage.completionTokens;
    cost += r.usage.costMicroYuan;
    if (!r.ok)
      throw new Error(`section ${leaf.path} rejected: ${r.violations.map((v) => v.message).join('；')}`);
    const checked = { text: r.text, removed: totalRemoved(r.removed) };
    removedTotal += checked.removed;
    written.push({
      path: leaf.path,
      heading: leaf.heading,
      level: leaf.level,
      text: checked.text,
      removedCitations: checked.removed,
    });
    sections += 1;
    chars += checked.text.length;
    if (Math.abs(checked.text.length - leaf.item.wordCount) <= leaf.item.wordCount * 0.15) withinBudget += 1;
  }
  sandbox.setFaults({ reset: true });
  const w = {
    id: `00000000-0000-4000-8000-${String(d).padStart(12, '0')}`,
    templateId: 'general',
    title: facts.title,
    topic: facts.topic,
    area: 'dissertation',
    outline,
    abstract: null,
    sources,
    sections: written,
  } as unknown as Writing;
  const docx = await renderWritingDocx(w, { sandbox: true, now: new Date() });
  const text = new TextDecoder()
    .decode(unzipSync(new Uint8Array(docx.bytes))['word/document.xml'])
    .replace(/<[^>]+>/g, '');
  const refStart = text.lastIndexOf('参考文献');
  const listed = new Set([...text.slice(refStart).matchAll(/\[(\d+)\] /g)].map((m) => Number(m[1])));
  const cited = [...text.slice(0, refStart).matchAll(/\[(\d+(?:,\d+)*)\]/g)].flatMap((m) =>
    m[1]!.split(',').map(Number),
  );
  const bad = cited.filter((n) => !listed.has(n)).length;
  unresolved += bad;
  const bodyText = written.map((x) => x.text).join('\n');
  const copy = await checkText(index, bodyText);
  const aigc = detectAigc(bodyText);
  copyRatioMax = Math.max(copyRatioMax, copy.ratio);
  aigcSum += aigc.score;
  console.log(
    `draft ${d + 1}${liar ? ' (lying model)' : ''}: sections=${leaves.length} cited=${cited.length} listed=${listed.size} unresolved=${bad} removed_by_validator=${written.reduce((s, x) => s + x.removedCitations, 0)} copy_ratio=${(copy.ratio * 100).toFixed(1)}% aigc_index=${aigc.score.toFixed(1)}`,
  );
}
const seconds = (performance.now() - started) / 1000;
// Control: a text that pastes three library abstracts must score high, or the 0 above means nothing.
const control = await checkText(
  index,
  demo.library
    .slice(5, 8)
    .map((d) => d.text)
    .join('\n'),
);
console.log(`control (3 library abstracts pasted): copy_ratio=${(control.ratio * 100).toFixed(1)}%`);
await server.close();
await index.close();
rmSync(work, { recursive: true, force: true });
const per10k = (v: number) => (v / chars) * 10_000;
console.log(`time per 10,000 字: ${per10k(seconds).toFixed(2)} s (sandbox)`);
console.log(
  `tokens per 10,000 字: prompt ${Math.round(per10k(promptTokens))}, completion ${Math.round(per10k(completionTokens))}`,
);
console.log(
  `cost per 10,000 字 at ${priceInput}/${priceOutput} 元 per million tokens: ${(per10k(cost) / 1e6).toFixed(4)} 元`,
);
console.log(`citations removed by the validator: ${removedTotal}`);
console.log(
  `aigc_index_mean=${(aigcSum / DRAFTS).toFixed(1)} (the sandbox's template text; says nothing about a real model)`,
);
console.log(
  `writing: drafts=${DRAFTS} unresolved_citations=${unresolved} budget_within_15pct=${(withinBudget / sections).toFixed(3)} copy_ratio_max=${(copyRatioMax * 100).toFixed(1)}%`,
);

// --- the fault modes -------------------------------------------------------------------------------
// Every writing flow (titles, outline, abstract, full text, revise) through the whole app (routes,
// jobs, orders, payment and LLM sandboxes, PGlite) against each content fault of the LLM sandbox,
// once (one bad answer) and always (every answer of the flow's task bad). Counted from the runs:
// delivered_bad = a user received text that carries a fault's marks (refusal, English, preamble,
// the system prompt, the planted instruction's payload, an invented source, empty, huge, cut off);
// charged_for_nothing = nothing delivered, yet the order was kept (not refunded) or a free outline
// or revision was used up.
const faultApp = await buildCheckApp();
await seedLibrary(faultApp, FAULT_LIBRARY);
await runFaultMatrix({
  flows: WRITING_FLOWS,
  faults: WRITING_FAULTS,
  run: (flow, fault, persistent) => runFlow(faultApp, flow as WritingFlow, fault as WritingFault, persistent),
  // What a user received; a refused run is counted by what it charged.
  deliveredBad: (run) => run.delivered && run.bad.length > 0,
  summary: (runs) => `delivered=${runs.filter((r) => r.delivered).length} (the rest refused or refunded)`,
});
await faultApp.close();
