/**
 * One-time start-up work of a checker process, done ahead of its first check: the traditional ->
 * simplified table (built from OpenCC's dictionaries), the word segmenter with its dictionary (ICU
 * loads it on first use), and, given the index the process will check against, a few warm-up
 * checks of a made-up paper assembled from the library's own documents (copied, reordered,
 * reworded, and text of its own), so that the JavaScript
 * engine has compiled the hot paths at the sizes real papers bring. A long-lived checker (the
 * service's worker threads) calls this when it starts: without it the first students' checks
 * after a start take several times as long as the later ones.
 */
import { checkText } from './check.ts';
import { normalizeText } from './normalize.ts';
import { type Options, resolveOptions } from './options.ts';
import { loadSegmenter } from './segment.ts';
import type { Index } from './types.ts';

/** Library documents the warm-up paper is made from (at most), and its length (characters). */
const WARM_DOCUMENTS = 120;
const WARM_CHARS = 30_000;
/**
 * Warm-up checks. V8 compiles a function called once per check (checkText, the word-level stage,
 * the report) with its optimising compiler only after many calls: with 8 the first checks after a
 * start still took 1.5× the later ones; 16 cost about 80 ms more at start on the staged corpus.
 */
const WARM_CHECKS = 16;
/**
 * ... but no more than this much time (at least one check): against a large PostgreSQL library a
 * check takes seconds, and 16 of them kept a starting check thread from its first student's paper
 * for two minutes.
 */
const WARM_BUDGET_MS = 2000;

/** Sentences of its own between the borrowed ones (thesis-like, written for this). */
const OWN = [
  '本章的分析基于笔者在调研阶段整理的资料。',
  '为便于比较，下文按照地区和年份分别列出主要结果。',
  '需要说明的是，部分样本因信息不完整而未纳入统计。',
  '以上结果与预期基本一致，下一节将讨论其可能的原因。',
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

/**
 * The made-up paper, from library documents in turn: copied as they are, with their sentences
 * reordered, with words swapped, and turned into text of its own (each sentence's characters
 * reversed: Chinese characters that match nothing); own sentences in between.
 */
async function warmUpPaper(index: Index): Promise<string> {
  const docNos = Array.from({ length: WARM_DOCUMENTS }, (_, i) => i + 1);
  const docs = await index.getDocuments(docNos);
  const parts: string[] = [];
  let chars = 0;
  docs.forEach((doc, i) => {
    if (chars >= WARM_CHARS) return;
    const sentences = doc.text.split(/(?<=[。！？])/);
    let text = doc.text;
    if (i % 4 === 1) text = sentences.reverse().join('');
    else if (i % 4 === 2) for (const [from, to] of SWAPS) text = text.replaceAll(from, to);
    else if (i % 4 === 3) text = sentences.map((x) => Array.from(x).reverse().join('')).join('');
    parts.push(`${OWN[i % OWN.length]}\n${text}`);
    chars += text.length;
  });
  return `第一章 绪论\n${parts.join('\n')}\n参考文献\n[1] 张三. 研究方法[J]. 学报, 2020.`;
}

/**
 * Prepare this process for checks: tables, segmenter, and (given `index`) warm-up checks against
 * it. Reports nothing and changes nothing in the index.
 */
export async function prepareEngine(options: Partial<Options> = {}, index?: Index): Promise<void> {
  const opts = resolveOptions(options);
  normalizeText('繁體，準備。');
  if (opts.paraphrase) (await loadSegmenter(opts.segmenter))('预先加载分词词典。');
  if (!index) return;
  const paper = await warmUpPaper(index);
  const started = performance.now();
  for (let i = 0; i < WARM_CHECKS; i++) {
    await checkText(index, paper, options);
    if (performance.now() - started > WARM_BUDGET_MS) break;
  }
}
