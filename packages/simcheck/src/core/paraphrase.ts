/**
 * The word-level stage: sentence windows of the input that the exact stage left (mostly) uncovered
 * are compared with sentence windows of the candidate sources by the overlap of their content words
 * (order-insensitive) and of their content characters. This catches synonym substitution (the
 * unchanged content words and the characters synonyms often share still overlap), reordering of
 * words and clauses inside a sentence, and sentences merged or split across neighbours (windows of
 * one or two input sentences against one to three source sentences).
 *
 * Retrieval of source sentences for an input sentence is by shared character bigrams through a
 * small inverted index over the candidates' sentences, so the segmenter runs only on pairs that
 * already look alike.
 */
import type { Passage } from './align.ts';
import type { NormalizedText } from './normalize.ts';
import { sliceNormalized } from './normalize.ts';
import type { Options } from './options.ts';
import { getContentChars, getContentWords, loadSegmenter, type Segment } from './segment.ts';

/** A sentence as a normalised range [from, to). */
export type SentenceRange = { readonly from: number; readonly to: number };

export type ParaphraseSource = {
  readonly docNo: number;
  readonly norm: NormalizedText;
  readonly sentences: readonly SentenceRange[];
};

const SENTENCE_END = /[。！？!?；;…\n]/;

/**
 * Split a text into sentences at 。！？；… and line breaks (and at ". " for Latin text); returns
 * normalised ranges, empty sentences left out.
 */
export function splitSentences(text: string, norm: NormalizedText): SentenceRange[] {
  const out: SentenceRange[] = [];
  let nIdx = 0;
  let from = 0;
  const codes = norm.start;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    const isEnd =
      i === text.length ||
      SENTENCE_END.test(ch!) ||
      (ch === '.' && (i + 1 === text.length || text[i + 1] === ' '));
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

type SentenceFeatures = { words: Set<string>; chars: Set<number> };

function bigramKey(a: number, b: number): number {
  return a * 0x110000 + b;
}

function bigramsOf(codes: Uint32Array, from: number, to: number): Set<number> {
  const out = new Set<number>();
  for (let i = from; i + 1 < to; i++) out.add(bigramKey(codes[i]!, codes[i + 1]!));
  return out;
}

function dice<T>(a: Set<T>, b: Set<T>): { shared: number; dice: number } {
  if (a.size === 0 || b.size === 0) return { shared: 0, dice: 0 };
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) shared++;
  return { shared, dice: (2 * shared) / (a.size + b.size) };
}

function union<T>(sets: Set<T>[]): Set<T> {
  if (sets.length === 1) return sets[0]!;
  const out = new Set<T>();
  for (const s of sets) for (const x of s) out.add(x);
  return out;
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

/**
 * Find paraphrased sentence windows. `covered` marks input positions already claimed by exact
 * passages (1) or excluded (2: reference list); `preferred` lists per input sentence the docNos that
 * already have exact passages nearby (tried first).
 * Returns passages with `fuzzy` set (exact = 0), one per matched input window.
 */
export async function findParaphrases(
  query: NormalizedText,
  querySentences: readonly SentenceRange[],
  covered: Uint8Array,
  sources: readonly ParaphraseSource[],
  options: Options,
): Promise<Passage[]> {
  const eligible: boolean[] = querySentences.map((s) => {
    const len = s.to - s.from;
    if (len < options.paraphraseMinChars) return false;
    let c = 0;
    for (let i = s.from; i < s.to; i++) if (covered[i]) c++;
    return c < 0.7 * len;
  });
  if (!eligible.some(Boolean) || sources.length === 0) return [];

  // Inverted index: bigram -> global source sentence ids.
  const sentDoc: number[] = [];
  const sentIdx: number[] = [];
  const postings = new Map<number, number[]>();
  sources.forEach((src, d) => {
    src.sentences.forEach((s, j) => {
      const id = sentDoc.length;
      sentDoc.push(d);
      sentIdx.push(j);
      for (const key of bigramsOf(src.norm.codes, s.from, s.to)) {
        const list = postings.get(key);
        if (list) list.push(id);
        else postings.set(key, [id]);
      }
    });
  });
  const maxDf = Math.max(20, sentDoc.length * 0.05);

  let segment: Segment | undefined;
  const qCache = new Map<number, SentenceFeatures>();
  const sCache = new Map<number, SentenceFeatures>();
  const featuresOf = (norm: NormalizedText, range: SentenceRange): SentenceFeatures => ({
    words: new Set(getContentWords(segment!, sliceNormalized(norm, range.from, range.to))),
    chars: getContentChars(norm.codes, range.from, range.to),
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

  const out: Passage[] = [];
  const done = new Uint8Array(querySentences.length);
  for (let i = 0; i < querySentences.length; i++) {
    if (!eligible[i] || done[i]) continue;
    const qs = querySentences[i]!;
    const qBigrams = bigramsOf(query.codes, qs.from, qs.to);
    const counts = new Map<number, number>();
    for (const key of qBigrams) {
      const list = postings.get(key);
      if (!list || list.length > maxDf) continue;
      for (const id of list) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const minShared = Math.max(3, Math.floor(qBigrams.size * 0.2));
    const top = [...counts.entries()]
      .filter(([, c]) => c >= minShared)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 4);
    if (top.length === 0) continue;
    segment ??= await loadSegmenter(options.segmenter);

    let best: { score: number; qTo: number; d: number; j0: number; j1: number } | undefined;
    const qWindows: number[] = [i];
    if (i + 1 < querySentences.length && eligible[i + 1]) qWindows.push(i + 1);
    for (const [id] of top) {
      const d = sentDoc[id]!;
      const j = sentIdx[id]!;
      const nSent = sources[d]!.sentences.length;
      for (const qTo of qWindows) {
        const qf = qTo === i ? queryFeatures(i) : mergeFeatures([queryFeatures(i), queryFeatures(qTo)]);
        for (let j0 = Math.max(0, j - 1); j0 <= j; j0++) {
          for (let j1 = j; j1 <= Math.min(nSent - 1, j0 + 2); j1++) {
            const parts: SentenceFeatures[] = [];
            for (let x = j0; x <= j1; x++) parts.push(sourceFeatures(d, x));
            const sf = mergeFeatures(parts);
            const s = scoreWindows(qf, sf);
            if (s.sharedWords < options.paraphraseMinSharedWords || s.score < options.paraphraseThreshold)
              continue;
            // Prefer the tighter window on near ties, so that a source window does not swallow neighbours.
            const adjusted = s.score - 0.02 * (j1 - j0) - 0.01 * (qTo - i);
            if (!best || adjusted > best.score) best = { score: adjusted, qTo, d, j0, j1 };
          }
        }
      }
    }
    if (!best) continue;
    const src = sources[best.d]!;
    const from = qs.from;
    const to = querySentences[best.qTo]!.to;
    for (let x = i; x <= best.qTo; x++) done[x] = 1;
    out.push({
      docNo: src.docNo,
      qs: from,
      qe: to,
      ss: src.sentences[best.j0]!.from,
      se: src.sentences[best.j1]!.to,
      exact: 0,
      fuzzy: to - from,
      diagonal: false,
    });
    i = best.qTo;
  }
  return out;
}

function mergeFeatures(parts: SentenceFeatures[]): SentenceFeatures {
  return { words: union(parts.map((p) => p.words)), chars: union(parts.map((p) => p.chars)) };
}
