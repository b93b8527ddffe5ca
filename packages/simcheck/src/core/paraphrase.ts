/**
 * The word-level stage: sentence windows of the input that the exact stage left (mostly) uncovered
 * are compared with sentence windows of the candidate sources by the overlap of their content words
 * (order-insensitive) and of their content characters. This catches synonym substitution (the
 * unchanged content words and the characters synonyms often share still overlap), reordering of
 * words and clauses inside a sentence, and sentences merged or split across neighbours (windows of
 * one or two input sentences against one to three source sentences). Two guards keep honest
 * writing out: an order score (what a rewrite left unchanged stays in order) and agreement of the
 * numbers and Latin terms (a rewrite leaves them alone; a field's template sentences differ there).
 *
 * Retrieval of source sentences for an input sentence is by shared character bigrams through a
 * small inverted index over the candidates' sentences, so the segmenter runs only on pairs that
 * already look alike.
 *
 * ~560 lines on purpose: most of it is findParaphrases, one pass whose retrieval, window scoring and
 * window growing share the per-check arrays (sentence features, the bigram index, what is covered);
 * split up, they would be passed around as one record. Its helpers are segment.ts and sort.ts.
 */
import type { Passage } from './align.ts';
import type { NormalizedText } from './normalize.ts';
import { sliceNormalized, WORD_TOKEN_BASE } from './normalize.ts';
import type { Options } from './options.ts';
import {
  getContentChars,
  getContentSequence,
  getContentWords,
  loadSegmenter,
  type Segment,
} from './segment.ts';
import { sortedUnique, sortIndicesByKey, U32Builder } from './sort.ts';

/** A sentence as a normalised range [from, to). */
export type SentenceRange = { readonly from: number; readonly to: number };

export type ParaphraseSource = {
  readonly docNo: number;
  readonly norm: NormalizedText;
  readonly sentences: readonly SentenceRange[];
  /**
   * The sentences worth retrieving (by index), when not all are: those near the places where the
   * source shares k-grams with the input. Windows may still take in their neighbours.
   */
  readonly retrievable?: Uint8Array;
};

/** Windows shorter than this (normalised characters) need SHORT_WINDOW_PENALTY more similarity. */
const SHORT_WINDOW = 30;
const SHORT_WINDOW_PENALTY = 0.1;
/** How far (in source sentences) a neighbour's match may lie from the window it extends. */
const NEIGHBOUR_SENTENCES = 3;
/**
 * The sentence next to a matched window, compared with the source sentence at the same place (the
 * one right after, or right before, the window's source sentences): the similarity and order score
 * it needs to continue the passage, and the content words it must share. A synonym rewrite changes
 * some sentences so much that they fall below the extension thresholds (measured on the benchmark:
 * 10% of its rewritten sentences score under 0.44 against their source sentence, and share three
 * words or fewer), while they sit exactly where the source's sentence sits; honest sentences next to
 * a copied passage score at most 0.17 and an order of 0.11 against the source's next sentence (99th
 * percentile of 2,637 such pairs), same-topic ones at most 0.29 in order (verbatim-in-paraphrase
 * tests).
 */
const NEXT_SENTENCE_SCORE = 0.2;
const NEXT_SENTENCE_ORDER = 0.35;
const NEXT_SENTENCE_SHARED_WORDS = 2;
/** Sentence ends (。！？!?；;… and line breaks) as a code-unit table. */
const SENTENCE_END = new Uint8Array(0x10000);
for (const ch of '。！？!?；;…\n') SENTENCE_END[ch.charCodeAt(0)] = 1;

/**
 * Split a text into sentences at 。！？；… and line breaks, and at a full stop written "." or "．"
 * (common in Chinese abstracts: "……疗效.方法 将……") unless it sits between two digits or two Latin
 * letters (0.05, e.g.); a "。" between digits (0。05, a conversion artefact) does not split either.
 * Returns normalised ranges, empty sentences left out.
 */
export function splitSentences(text: string, norm: NormalizedText): SentenceRange[] {
  const out: SentenceRange[] = [];
  let nIdx = 0;
  let from = 0;
  const codes = norm.start;
  const isDigit = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0xff10 && c <= 0xff19);
  const isLatin = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const inWord = (i: number) => {
    const a = i > 0 ? text.charCodeAt(i - 1) : 0;
    const b = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    return (isDigit(a) && isDigit(b)) || (isLatin(a) && isLatin(b));
  };
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const isEnd =
      i === text.length ||
      (SENTENCE_END[c] === 1 && !(c === 0x3002 && inWord(i))) ||
      ((c === 0x2e || c === 0xff0e) && !inWord(i));
    if (!isEnd) continue;
    // Normalised characters whose original start is < i belong to this sentence.
    let to = nIdx;
    while (to < codes.length && codes[to]! < i) to++;
    if (to > from) out.push({ from, to });
    from = to;
    nIdx = to;
  }
  return out;
}

/**
 * Content words (as numbers, see findParaphrases), content characters, and the Latin words and
 * numbers (as normalised units), each a set: ascending, without repeats. Plain arrays rather than
 * Sets: a check builds thousands of them, and compares them by merging.
 */
type SentenceFeatures = { words: number[]; chars: number[]; tokens: number[] };

function getTokens(codes: Uint32Array, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) if (codes[i]! >= WORD_TOKEN_BASE) out.push(codes[i]!);
  return sortedUnique(out);
}

/** How many values two ascending sets share. */
function sharedCount(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared;
}

/**
 * Synonym substitution leaves numbers, units, formulas and Latin terms alone; template sentences of
 * a field ("采用C18色谱柱，流动相为……，检测波长265nm") differ exactly there. Windows whose Latin
 * words and numbers mostly differ (Jaccard < 0.5) are therefore not rewrites of each other.
 */
function haveSameTokens(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 && b.length === 0) return true;
  const shared = sharedCount(a, b);
  return shared / (a.length + b.length - shared) >= 0.5;
}

/** 32-bit hash of a character bigram (a rare collision only adds a little retrieval noise). */
function bigramHash(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
}

function dice(a: readonly number[], b: readonly number[]): { shared: number; dice: number } {
  if (a.length === 0 || b.length === 0) return { shared: 0, dice: 0 };
  const shared = sharedCount(a, b);
  return { shared, dice: (2 * shared) / (a.length + b.length) };
}

function union(sets: readonly number[][]): number[] {
  if (sets.length === 1) return sets[0]!;
  return sortedUnique(sets.flat());
}

/** Similarity of two windows: the mean of content-word Dice and content-character Dice. */
export function scoreWindows(
  a: SentenceFeatures,
  b: SentenceFeatures,
): { score: number; sharedWords: number; wordDice: number; charDice: number } {
  const w = dice(a.words, b.words);
  const c = dice(a.chars, b.chars);
  return { score: 0.5 * w.dice + 0.5 * c.dice, sharedWords: w.shared, wordDice: w.dice, charDice: c.dice };
}

type WindowMatch = { score: number; qTo: number; d: number; j0: number; j1: number };

/**
 * Order score of two windows: the longest common subsequence of their content characters divided
 * by the longer one's length (1 = same characters in the same order).
 */
export function getOrderScore(
  a: Uint32Array,
  aFrom: number,
  aTo: number,
  b: Uint32Array,
  bFrom: number,
  bTo: number,
): number {
  const x = getContentSequence(a, aFrom, aTo);
  const y = getContentSequence(b, bFrom, bTo);
  if (x.length === 0 || y.length === 0) return 0;
  let prev = new Uint16Array(y.length + 1);
  let cur = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = xi === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]! / Math.max(x.length, y.length);
}

/**
 * Find paraphrased sentence windows, by hysteresis: a window scoring at least
 * `paraphraseThreshold` is a seed; a sentence next to a seed or to an exact passage of the same
 * source then needs only `paraphraseExtendThreshold`, provided its best window in that source lies
 * near the neighbour's (a rewritten passage is rewritten sentence after sentence, while an honest
 * sentence that happens to resemble a library sentence stands alone).
 *
 * `covered` marks input positions already claimed by exact passages (1) or excluded (2: the
 * reference list); `anchors` are the exact passages; `onProgress` gets the share of input
 * sentences searched so far; `searchable`, when given, names the input sentences worth searching
 * (by index). Returns passages with `fuzzy` set (exact = 0), one per matched input
 * window.
 */
export async function findParaphrases(
  query: NormalizedText,
  querySentences: readonly SentenceRange[],
  covered: Uint8Array,
  sources: readonly ParaphraseSource[],
  anchors: readonly Passage[],
  options: Options,
  onProgress?: (fraction: number) => void,
  searchable?: Uint8Array,
): Promise<Passage[]> {
  const nq = querySentences.length;
  const eligible: boolean[] = querySentences.map((s, i) => {
    if (searchable && !searchable[i]) return false;
    const len = s.to - s.from;
    if (len < options.paraphraseMinChars) return false;
    let c = 0;
    for (let i = s.from; i < s.to; i++) if (covered[i] === 1) c++;
    for (let i = s.from; i < s.to; i++) if (covered[i] === 2) return false;
    return c < 0.7 * len;
  });
  if (!eligible.some(Boolean) || sources.length === 0) return [];
  const docIndex = new Map<number, number>();
  sources.forEach((src, d) => {
    docIndex.set(src.docNo, d);
  });

  // Inverted index over the retrievable source sentences: each distinct bigram hash (`keys`,
  // ascending) with the sentences holding it (`ids[starts[k]] .. ids[starts[k + 1]]`, global
  // sentence ids, ascending and without repeats), so a bigram's document frequency is its range's
  // length. Built from (hash, id) pairs by a stable radix sort (ids ascend within a hash).
  const sentDoc: number[] = [];
  const sentIdx: number[] = [];
  const pairKeys = new U32Builder(1 << 12);
  const pairIds = new U32Builder(1 << 12);
  sources.forEach((src, d) => {
    src.sentences.forEach((s, j) => {
      if (src.retrievable && !src.retrievable[j]) return;
      const id = sentDoc.length;
      sentDoc.push(d);
      sentIdx.push(j);
      const codes = src.norm.codes;
      for (let i = s.from; i + 1 < s.to; i++) {
        pairKeys.push(bigramHash(codes[i]!, codes[i + 1]!));
        pairIds.push(id);
      }
    });
  });
  const order = sortIndicesByKey(pairKeys.view());
  const keys = new Uint32Array(order.length);
  const starts = new Uint32Array(order.length + 1);
  const ids = new Uint32Array(order.length);
  let nKeys = 0;
  let nIds = 0;
  for (let x = 0; x < order.length; x++) {
    const key = pairKeys.data[order[x]!]!;
    const id = pairIds.data[order[x]!]!;
    if (nKeys === 0 || keys[nKeys - 1] !== key) {
      keys[nKeys] = key;
      starts[nKeys++] = nIds;
    } else if (ids[nIds - 1] === id) continue; // the bigram twice in one sentence counts once
    ids[nIds++] = id;
  }
  starts[nKeys] = nIds;
  // The keys' positions by key: open addressing, at most half full.
  let tableBits = 4;
  while (1 << tableBits < nKeys * 2) tableBits++;
  const tableShift = 32 - tableBits;
  const tableMask = (1 << tableBits) - 1;
  const table = new Int32Array(1 << tableBits).fill(-1);
  for (let k = 0; k < nKeys; k++) {
    let slot = Math.imul(keys[k]!, 0x9e3779b1) >>> tableShift;
    while (table[slot]! >= 0) slot = (slot + 1) & tableMask;
    table[slot] = k;
  }
  /** The position of `key` in `keys`, or -1. */
  const find = (key: number): number => {
    let slot = Math.imul(key, 0x9e3779b1) >>> tableShift;
    for (;;) {
      const k = table[slot]!;
      if (k < 0 || (keys[k]! | 0) === (key | 0)) return k;
      slot = (slot + 1) & tableMask;
    }
  };
  const maxDf = Math.max(20, sentDoc.length * 0.05);
  let segment: Segment | undefined;
  const qCache = new Map<number, SentenceFeatures>();
  const sCache = new Map<number, SentenceFeatures>();
  // Content words as numbers, the same number for the same word throughout this check.
  const wordIds = new Map<string, number>();
  const wordId = (w: string): number => {
    let id = wordIds.get(w);
    if (id === undefined) {
      id = wordIds.size;
      wordIds.set(w, id);
    }
    return id;
  };
  const featuresOf = (norm: NormalizedText, range: SentenceRange): SentenceFeatures => ({
    words: sortedUnique(getContentWords(segment!, sliceNormalized(norm, range.from, range.to)).map(wordId)),
    chars: getContentChars(norm.codes, range.from, range.to),
    tokens: getTokens(norm.codes, range.from, range.to),
  });
  const queryFeatures = (i: number): SentenceFeatures => {
    let f = qCache.get(i);
    if (!f) {
      f = featuresOf(query, querySentences[i]!);
      qCache.set(i, f);
    }
    return f;
  };
  const sourceFeatures = (d: number, j: number): SentenceFeatures => {
    const key = d * 1_000_000 + j;
    let f = sCache.get(key);
    if (!f) {
      f = featuresOf(sources[d]!.norm, sources[d]!.sentences[j]!);
      sCache.set(key, f);
    }
    return f;
  };

  /** Score every window pairing of input sentence i (alone or with i+1) with source sentence j of doc d. */
  /**
   * The best window pairing input sentence i (alone or with i + 1, up to maxQ) with source sentence
   * j of doc d (alone or with neighbours). A window qualifies when its overlap score reaches
   * `threshold` and its order score (the longest common subsequence of content characters over the
   * longer window) reaches `minOrder` — a rewrite keeps the order of what it did not change — or
   * when the overlap alone reaches `paraphraseOrderFreeThreshold` (words shuffled inside a sentence).
   */
  const scoreAround = (
    i: number,
    d: number,
    j: number,
    maxQ: number,
    threshold: number,
    minOrder: number,
  ): WindowMatch | undefined => {
    let best: WindowMatch | undefined;
    const qs = querySentences[i]!;
    const src = sources[d]!;
    const nSent = src.sentences.length;
    for (let qTo = i; qTo <= maxQ; qTo++) {
      const qf = qTo === i ? queryFeatures(i) : mergeFeatures([queryFeatures(i), queryFeatures(qTo)]);
      const qEnd = querySentences[qTo]!.to;
      const qLen = qEnd - qs.from;
      // Short windows need stronger evidence: stock phrases make short sentences look alike.
      const penalty = qLen < SHORT_WINDOW ? SHORT_WINDOW_PENALTY : 0;
      for (let j0 = Math.max(0, j - 1); j0 <= j; j0++) {
        for (let j1 = j; j1 <= Math.min(nSent - 1, j0 + 2); j1++) {
          // Windows of very different length are not rewrites of each other.
          const sFrom = src.sentences[j0]!.from;
          const sTo = src.sentences[j1]!.to;
          if (sTo - sFrom < 0.5 * qLen || sTo - sFrom > 2 * qLen) continue;
          const parts: SentenceFeatures[] = [];
          for (let x = j0; x <= j1; x++) parts.push(sourceFeatures(d, x));
          const sf = mergeFeatures(parts);
          if (!haveSameTokens(qf.tokens, sf.tokens)) continue;
          const s = scoreWindows(qf, sf);
          if (s.sharedWords < options.paraphraseMinSharedWords || s.score < threshold + penalty) continue;
          // Prefer the tighter window on near ties, so that a source window does not swallow neighbours.
          const adjusted = s.score - 0.02 * (j1 - j0) - 0.06 * (qTo - i);
          if (best && adjusted <= best.score) continue;
          if (s.score < options.paraphraseOrderFreeThreshold + penalty) {
            const order = getOrderScore(query.codes, qs.from, qEnd, src.norm.codes, sFrom, sTo);
            if (order < minOrder) continue;
          }
          best = { score: adjusted, qTo, d, j0, j1 };
        }
      }
    }
    return best;
  };

  // Per input sentence: the source sentences sharing the most character bigrams (top few per doc).
  const retrieved: Map<number, number[]>[] = [];
  const counts = new Uint16Array(sentDoc.length);
  const touched: number[] = [];
  let qBuf = new Uint32Array(256);
  for (let i = 0; i < nq; i++) {
    const perDoc = new Map<number, number[]>();
    retrieved.push(perDoc);
    if (!eligible[i]) continue;
    const qs = querySentences[i]!;
    // The sentence's distinct bigrams (sorted, to count each once).
    const nb = Math.max(0, qs.to - qs.from - 1);
    if (qBuf.length < nb) qBuf = new Uint32Array(nb * 2);
    for (let x = 0; x < nb; x++)
      qBuf[x] = bigramHash(query.codes[qs.from + x]!, query.codes[qs.from + x + 1]!);
    const sorted = qBuf.subarray(0, nb).sort();
    let distinct = 0;
    for (let b = 0; b < nb; b++) {
      const h = sorted[b]!;
      if (b > 0 && h === sorted[b - 1]) continue;
      distinct++;
      const at = find(h);
      if (at < 0) continue;
      const from = starts[at]!;
      const to = starts[at + 1]!;
      if (to - from > maxDf) continue;
      for (let x = from; x < to; x++) {
        const id = ids[x]!;
        if (counts[id] === 0) touched.push(id);
        counts[id]!++;
      }
    }
    const minShared = Math.max(3, Math.floor(distinct * 0.2));
    const top: number[] = [];
    for (const id of touched) if (counts[id]! >= minShared) top.push(id);
    top.sort((a, b) => counts[b]! - counts[a]! || a - b);
    for (const id of top.slice(0, 6)) {
      const d = sentDoc[id]!;
      const list = perDoc.get(d) ?? [];
      list.push(sentIdx[id]!);
      perDoc.set(d, list);
    }
    for (const id of touched) counts[id] = 0;
    touched.length = 0;
  }
  if (retrieved.every((m) => m.size === 0)) return [];
  segment = await loadSegmenter(options.segmenter);

  // accepted[i]: the window that covers input sentence i (doc, source sentence range).
  const accepted: ({ d: number; j0: number; j1: number; from: number } | undefined)[] = new Array(nq);
  const out: Passage[] = [];
  const accept = (i: number, m: WindowMatch) => {
    const src = sources[m.d]!;
    for (let x = i; x <= m.qTo; x++) accepted[x] = { d: m.d, j0: m.j0, j1: m.j1, from: i };
    out.push({
      docNo: src.docNo,
      qs: querySentences[i]!.from,
      qe: querySentences[m.qTo]!.to,
      ss: src.sentences[m.j0]!.from,
      se: src.sentences[m.j1]!.to,
      exact: 0,
      fuzzy: querySentences[m.qTo]!.to - querySentences[i]!.from,
      diagonal: false,
      cores: undefined,
    });
  };

  // Seeds.
  const step = Math.max(1, Math.ceil(nq / 20));
  for (let i = 0; i < nq; i++) {
    if (i % step === 0) onProgress?.(i / nq);
    if (!eligible[i] || accepted[i]) continue;
    let best: WindowMatch | undefined;
    const maxQ = i + 1 < nq && eligible[i + 1] && !accepted[i + 1] ? i + 1 : i;
    for (const [d, js] of retrieved[i]!) {
      for (const j of js) {
        const m = scoreAround(i, d, j, maxQ, options.paraphraseThreshold, options.paraphraseMinOrder);
        if (m && (!best || m.score > best.score)) best = m;
      }
    }
    if (best) {
      accept(i, best);
      i = best.qTo;
    }
  }

  // Exact passages anchor their sentences too.
  const anchorOf: ({ d: number; j0: number; j1: number } | undefined)[] = new Array(nq);
  for (const p of anchors) {
    const d = docIndex.get(p.docNo);
    if (d === undefined) continue;
    const sents = sources[d]!.sentences;
    const j0 = sentenceAt(sents, p.ss);
    const j1 = sentenceAt(sents, Math.max(p.ss, p.se - 1));
    for (let i = sentenceAt(querySentences, p.qs); i < nq && querySentences[i]!.from < p.qe; i++) {
      if (p.qs < querySentences[i]!.to) anchorOf[i] = { d, j0, j1 };
    }
  }

  /**
   * Input sentence i against source sentence j of doc d alone, at the place where the passage of
   * its neighbour continues in the source (see NEXT_SENTENCE_SCORE).
   */
  const scoreInPlace = (i: number, d: number, j: number): WindowMatch | undefined => {
    const src = sources[d]!;
    if (j < 0 || j >= src.sentences.length) return undefined;
    const qs = querySentences[i]!;
    const ss = src.sentences[j]!;
    const qLen = qs.to - qs.from;
    const sLen = ss.to - ss.from;
    if (sLen < 0.5 * qLen || sLen > 2 * qLen) return undefined;
    const qf = queryFeatures(i);
    const sf = sourceFeatures(d, j);
    if (!haveSameTokens(qf.tokens, sf.tokens)) return undefined;
    const penalty = qLen < SHORT_WINDOW ? SHORT_WINDOW_PENALTY : 0;
    const sc = scoreWindows(qf, sf);
    if (sc.sharedWords < NEXT_SENTENCE_SHARED_WORDS || sc.score < NEXT_SENTENCE_SCORE + penalty)
      return undefined;
    if (getOrderScore(query.codes, qs.from, qs.to, src.norm.codes, ss.from, ss.to) < NEXT_SENTENCE_ORDER)
      return undefined;
    return { score: sc.score, qTo: i, d, j0: j, j1: j };
  };

  // Extension to neighbours, until nothing changes.
  const neighbourLink = (x: number) => accepted[x] ?? anchorOf[x];
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < nq; i++) {
      if (!eligible[i] || accepted[i]) continue;
      let best: WindowMatch | undefined;
      for (const x of [i - 1, i + 1]) {
        if (x < 0 || x >= nq) continue;
        const link = neighbourLink(x);
        if (!link) continue;
        for (const j of retrieved[i]!.get(link.d) ?? []) {
          if (j < link.j0 - NEIGHBOUR_SENTENCES || j > link.j1 + NEIGHBOUR_SENTENCES) continue;
          const m = scoreAround(
            i,
            link.d,
            j,
            i,
            options.paraphraseExtendThreshold,
            options.paraphraseMinOrder - 0.1,
          );
          if (m && (!best || m.score > best.score)) best = m;
        }
      }
      // Else the source sentence where the neighbour's passage continues, at a lower bar.
      if (!best) {
        for (const x of [i - 1, i + 1]) {
          if (x < 0 || x >= nq) continue;
          const link = neighbourLink(x);
          if (!link) continue;
          const m = scoreInPlace(i, link.d, x < i ? link.j1 + 1 : link.j0 - 1);
          if (m && (!best || m.score > best.score)) best = m;
        }
      }
      if (best) {
        accept(i, best);
        changed = true;
      }
    }
  }
  return out;
}

/** Index of the sentence containing normalised position pos (the last one starting at or before it). */
export function sentenceAt(sentences: readonly SentenceRange[], pos: number): number {
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sentences[mid]!.from <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function mergeFeatures(parts: SentenceFeatures[]): SentenceFeatures {
  return {
    words: union(parts.map((p) => p.words)),
    chars: union(parts.map((p) => p.chars)),
    tokens: union(parts.map((p) => p.tokens)),
  };
}
