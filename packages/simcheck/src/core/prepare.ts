/**
 * One-time start-up work of a checker process, done ahead of its first check: the traditional ->
 * simplified table (built from OpenCC's dictionaries), the word segmenter with its dictionary (ICU
 * loads it on first use), and, given the index the process will check against, warm-up checks of
 * three made-up theses assembled from the library's own documents (copied, reordered, reworded,
 * quoted, broken into lines, and text of their own), so that the JavaScript engine has compiled
 * the hot paths, with the types and branches real papers bring, at the index's size. A long-lived checker (the
 * service's worker threads) calls this when it starts: without it the first students' checks
 * after a start take several times as long as the later ones.
 */
import { checkText } from './check.ts';
import { normalizeText } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import { loadSegmenter } from './segment.ts';
import type { Index } from './types.ts';

/** Library documents each warm-up paper is made from (at most), and its length (characters). */
const WARM_DOCUMENTS = 120;
/** Warm-up papers, from documents 1–120, 121–240 and 241–360, checked in turn. */
const WARM_PAPERS = 3;
const WARM_CHARS = 30_000;
/**
 * Warm-up checks. V8 optimises a function called once per check (checkText, the candidate choice,
 * the word-level stage, the report) only after many calls, and compiles again where a real paper
 * takes a branch, or a type, the warm-up did not: after 16 warm-up checks of one paper without
 * headings, quotations or a reference list, the first three checks of a real thesis against
 * 200,000 documents took about twice as long as the later ones (45–60 against 25 ms); after 48 of
 * the three thesis-like papers below, 30–35 ms (benchmark, docs/benchmarks.md). They take about
 * 0.7 s on the staged corpus and 1.7 s against 200,000 documents.
 */
const WARM_CHECKS = 48;
/**
 * ... but no more than this much time (at least one check): against a large PostgreSQL library a
 * check takes seconds, and many of them would keep a starting check thread from its first
 * student's paper for minutes.
 */
const WARM_BUDGET_MS = 2000;

/** Sentences of its own between the borrowed ones (thesis-like, written for this). */
const OWN = [
  '本章的分析基于笔者在调研阶段整理的资料。',
  '为便于比较，下文按照地区和年份分别列出主要结果。',
  '需要说明的是，部分样本因信息不完整而未纳入统计。',
  '以上结果与预期基本一致，下一节将讨论其可能的原因。',
  // full-width letters and digits, traditional characters, Latin terms and numbers
  '實驗數據見表３，樣本量為１２０，採用ＳＰＳＳ　２６．０進行處理。',
  '模型在测试集上的F1值为0.87，高于基线方法（0.81）约6个百分点。',
];

/** Word swaps, as students disguise a copied sentence (exercises the word-level stage). */
const SWAPS: [string, string][] = [
  ['研究', '探究'],
  ['显著', '明显'],
  ['提高', '提升'],
  ['方法', '手段'],
  ['分析', '剖析'],
  ['影响', '作用'],
  ['结果', '结论'],
  ['采用', '运用'],
];

/** A line break every `every` characters, as text extracted from a PDF has them. */
function breakLines(text: string, every: number): string {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += every) parts.push(text.slice(i, i + every));
  return parts.join('\n');
}

/**
 * A made-up paper (`variant` 0, 1, 2: another stretch of the library, the disguises in another
 * order): a thesis's parts (title, 摘要 and 关键词, chapters with numbered sections, a
 * reference list, 致谢) filled from library documents in turn — copied as they are, with their
 * sentences reordered, with words swapped, quoted with a citation mark, broken into lines as a PDF
 * gives them, and turned into text of its own (each sentence's characters reversed: Chinese
 * characters that match nothing) — with sentences of its own in between. Real papers take every
 * branch of the engine that this paper takes.
 */
async function warmUpPaper(index: Index, variant: number): Promise<string> {
  const docNos = Array.from({ length: WARM_DOCUMENTS }, (_, i) => variant * WARM_DOCUMENTS + i + 1);
  const docs = await index.getDocuments(docNos);
  const parts: string[] = [
    '基于多源数据的若干问题研究',
    '摘要：本文围绕相关问题展开分析。',
    '关键词：数据；模型；分析',
  ];
  let chars = 0;
  let chapter = 0;
  docs.forEach((doc, i) => {
    if (chars >= WARM_CHARS) return;
    if (i % 12 === 0) {
      chapter++;
      parts.push(`第${chapter}章 ${chapter === 1 ? '绪论' : '分析与讨论'}`);
    }
    if (i % 4 === 0) parts.push(`${chapter}.${(i % 12) / 4 + 1} 研究内容`);
    const sentences = doc.text.split(/(?<=[。！？])/);
    let text = doc.text;
    switch ((i + variant) % 6) {
      case 1:
        text = sentences.reverse().join('');
        break;
      case 2:
        for (const [from, to] of SWAPS) text = text.replaceAll(from, to);
        break;
      case 3:
        text = sentences.map((x) => Array.from(x).reverse().join('')).join('');
        break;
      case 4:
        text = `正如已有研究所指出的，“${sentences[0] ?? text}”[${(i % 9) + 1}]${sentences.slice(1).join('')}`;
        break;
      case 5:
        text = breakLines(text, 31);
        break;
    }
    parts.push(`${OWN[i % OWN.length]}${text}`);
    chars += text.length;
  });
  const references = Array.from(
    { length: 9 },
    (_, i) =>
      `[${i + 1}] 张${'三四五六七八九十一'[i]}. 相关问题研究[J]. 学报, ${2010 + i}, ${i + 3}(2): 1-9.`,
  );
  return [...parts, '参考文献', ...references, '致谢', '感谢导师的悉心指导。'].join('\n');
}

/**
 * Prepare this process for checks: tables, segmenter, and (given `index`) warm-up checks against
 * it. Reports nothing and changes nothing in the index.
 */
export async function prepareEngine(
  options: Partial<Options> = {},
  index?: Index,
  /** Milliseconds for the warm-up budget (tests pass a clock they move). */
  now: () => number = () => performance.now(),
): Promise<void> {
  const opts = resolveOptions(options);
  normalizeText('繁體，準備。');
  if (opts.paraphrase) (await loadSegmenter(opts.segmenter))('预先加载分词词典。');
  if (!index) return;
  const papers: string[] = [];
  for (let v = 0; v < WARM_PAPERS; v++) papers.push(await warmUpPaper(index, v));
  const started = now();
  for (let i = 0; i < WARM_CHECKS; i++) {
    await checkText(index, papers[i % papers.length]!, options);
    if (now() - started > WARM_BUDGET_MS) break;
  }
}
