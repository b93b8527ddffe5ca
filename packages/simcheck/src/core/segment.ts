/**
 * Word segmentation for the paraphrase stage. Two registry-only segmenters behind one function:
 * jieba-wasm (jieba-rs compiled to WebAssembly; ~1 s to build its dictionary on first use) and the
 * ICU word segmenter built into Node (`Intl.Segmenter('zh')`, dictionary based, ~40 ms to start).
 * Both are loaded lazily, only when a check actually reaches the word-level stage.
 */
import type { SegmenterName } from './options.ts';
import { sortedUnique } from './sort.ts';

export type Segment = (text: string) => string[];

let jieba: Segment | undefined;
let intl: Segment | undefined;

/** Load (once) and return the named segmenter. */
export async function loadSegmenter(name: SegmenterName): Promise<Segment> {
  if (name === 'jieba') {
    if (!jieba) {
      const mod = (await import('jieba-wasm')) as { cut: (text: string, hmm?: boolean) => string[] };
      jieba = (text) => mod.cut(text, true);
    }
    return jieba;
  }
  if (!intl) {
    const seg = new Intl.Segmenter('zh', { granularity: 'word' });
    intl = (text) => {
      const out: string[] = [];
      for (const s of seg.segment(text)) if (s.isWordLike) out.push(s.segment);
      return out;
    };
  }
  return intl;
}

// Function words and thesis boilerplate that carry no content: overlap in these says nothing.
const STOP_WORDS = new Set(
  (
    '的 了 和 与 及 或 是 在 对 为 以 于 由 被 把 将 从 向 而 且 也 都 就 还 又 但 并 其 之 该 此 这 那 有 无 不 没 ' +
    '个 种 些 等 中 上 下 内 外 后 前 时 能 可 会 要 让 使 给 着 过 得 地 所 如 若 则 因 故 即 各 每 ' +
    '我们 他们 它们 本文 本研究 文章 笔者 一个 一种 一些 这个 这种 这些 那些 这样 那样 进行 通过 以及 并且 而且 ' +
    '其中 可以 能够 由于 因此 所以 但是 然而 如果 同时 此外 另外 对于 关于 根据 为了 已经 目前 主要 相关 ' +
    '具有 存在 作为 不仅 之间 方面 问题 情况 部分 一定 一方面 另一方面 并不 以上 以下 所示 如下'
  ).split(' '),
);

/** Content words of a normalised sentence: no stop words; single characters only if Latin/digit runs. */
export function getContentWords(segment: Segment, text: string): string[] {
  const out: string[] = [];
  for (const w of segment(text)) {
    if (w.length < 2) {
      const c = w.charCodeAt(0);
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) out.push(w);
    } else if (!STOP_WORDS.has(w)) out.push(w);
  }
  return out;
}

/** Function characters, by code point (a table: this runs for every character of every window). */
const STOP_CHAR = new Uint8Array(0x10000);
for (const ch of '的了和与及或是在对为以于由被把将从向而且也都就还又但并其之该此这那有无不个种些等中上下') {
  STOP_CHAR[ch.charCodeAt(0)] = 1;
}

/** The normalised code points of a range without its function characters (的, 了, 和 ...), in order. */
export function getContentSequence(codes: Uint32Array, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    const c = codes[i]!;
    if (c > 0xffff || STOP_CHAR[c] !== 1) out.push(c);
  }
  return out;
}

/** Content characters (code points) of a normalised range, for character-level evidence: ascending, without repeats. */
export function getContentChars(codes: Uint32Array, from: number, to: number): number[] {
  return sortedUnique(getContentSequence(codes, from, to));
}
