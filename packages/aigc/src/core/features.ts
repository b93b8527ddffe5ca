/**
 * Features of one passage: a few interpretable measures (each tied to a reason a reader can check)
 * and hashed character unigrams and bigrams. Pure: a string in, numbers out.
 */
import { COLLOQUIAL, CONNECTIVES, HEDGES, TEMPLATE_PHRASES } from './lexicon.ts';
import {
  clauseLengths,
  coefficientOfVariation,
  countContentChars,
  countOccurrences,
  fnv1a,
  mean,
  sentenceLengths,
  toSymbols,
} from './text.ts';

/** The reasons a passage can be given, keyed by code; the Chinese labels are in reasons.ts. */
export type ReasonCode =
  | 'uniform_sentences'
  | 'dense_connectives'
  | 'template_phrases'
  | 'hedging'
  | 'impersonal'
  | 'enumeration'
  | 'low_diversity'
  | 'ngram'
  /** A stock opening or closing found by rule (frames.ts), not by a feature of the model. */
  | 'template_frame';

export interface DenseFeature {
  name: string;
  /** The reason this feature supports when it pushes a passage towards "generated"; null: none. */
  reason: ReasonCode | null;
  compute(f: PassageStats): number;
}

/** Counts computed once per passage, from which the dense features are read. */
export interface PassageStats {
  text: string;
  symbols: string[];
  contentChars: number;
  sentences: number[];
  clauses: number[];
}

const per100 = (count: number, s: PassageStats) => (100 * count) / Math.max(s.contentChars, 1);
const share = (pred: (c: string) => boolean, s: PassageStats) =>
  s.symbols.length === 0 ? 0 : s.symbols.filter(pred).length / s.symbols.length;

const PUNCT = /[\p{P}\p{S}]/u;
const ENUMERATION =
  /(?:^|[\s：:。；;，,])(?:\d{1,2}[.、．)]|[（(]\d{1,2}[)）]|[①②③④⑤⑥⑦⑧⑨⑩]|第[一二三四五六七八九十]+[，,、])/gu;
const QUOTES_BRACKETS = /[“”"《》（）()「」【】]/gu;

/** Moving-average type-token ratio of the Han characters over windows of 50. */
function movingTypeTokenRatio(symbols: string[]): number {
  const han = symbols.filter((c) => /\p{Script=Han}/u.test(c));
  const w = 50;
  if (han.length === 0) return 0;
  if (han.length <= w) return new Set(han).size / han.length;
  const counts = new Map<string, number>();
  for (let i = 0; i < w; i++) counts.set(han[i]!, (counts.get(han[i]!) ?? 0) + 1);
  let sum = counts.size;
  let windows = 1;
  for (let i = w; i < han.length; i++) {
    const out = han[i - w]!;
    const c = counts.get(out)! - 1;
    if (c === 0) counts.delete(out);
    else counts.set(out, c);
    counts.set(han[i]!, (counts.get(han[i]!) ?? 0) + 1);
    sum += counts.size;
    windows++;
  }
  return sum / windows / w;
}

function repeatedBigramShare(symbols: string[]): number {
  if (symbols.length < 3) return 0;
  const seen = new Set<string>();
  let repeats = 0;
  for (let i = 1; i < symbols.length; i++) {
    const b = symbols[i - 1]! + symbols[i]!;
    if (seen.has(b)) repeats++;
    else seen.add(b);
  }
  return repeats / (symbols.length - 1);
}

/** The interpretable features, in model order. Changing this list changes the model version. */
export const DENSE_FEATURES: readonly DenseFeature[] = [
  { name: 'log_length', reason: null, compute: (s) => Math.log1p(s.contentChars) },
  { name: 'sentence_cv', reason: 'uniform_sentences', compute: (s) => coefficientOfVariation(s.sentences) },
  { name: 'few_sentences', reason: null, compute: (s) => (s.sentences.length < 3 ? 1 : 0) },
  { name: 'sentence_mean_log', reason: null, compute: (s) => Math.log1p(mean(s.sentences)) },
  { name: 'clause_cv', reason: 'uniform_sentences', compute: (s) => coefficientOfVariation(s.clauses) },
  { name: 'clause_mean_log', reason: null, compute: (s) => Math.log1p(mean(s.clauses)) },
  {
    name: 'connectives',
    reason: 'dense_connectives',
    compute: (s) => per100(countOccurrences(s.text, CONNECTIVES), s),
  },
  {
    name: 'templates',
    reason: 'template_phrases',
    compute: (s) => per100(countOccurrences(s.text, TEMPLATE_PHRASES), s),
  },
  { name: 'hedges', reason: 'hedging', compute: (s) => per100(countOccurrences(s.text, HEDGES), s) },
  {
    name: 'colloquial',
    reason: 'impersonal',
    compute: (s) => per100(countOccurrences(s.text, COLLOQUIAL), s),
  },
  {
    name: 'first_person',
    reason: 'impersonal',
    compute: (s) => per100(countOccurrences(s.text, ['我', '俺', '咱']), s),
  },
  {
    name: 'second_person_formal',
    reason: 'template_phrases',
    compute: (s) => per100(countOccurrences(s.text, ['您']), s),
  },
  { name: 'second_person', reason: null, compute: (s) => per100(countOccurrences(s.text, ['你']), s) },
  { name: 'digit_share', reason: null, compute: (s) => share((c) => c === '0', s) },
  { name: 'latin_share', reason: null, compute: (s) => share((c) => c === 'a', s) },
  { name: 'punct_share', reason: null, compute: (s) => share((c) => PUNCT.test(c), s) },
  {
    name: 'clauses_per_sentence',
    reason: null,
    compute: (s) => (s.sentences.length === 0 ? 0 : s.clauses.length / s.sentences.length),
  },
  {
    name: 'enumeration',
    reason: 'enumeration',
    compute: (s) => per100((s.text.match(ENUMERATION) ?? []).length, s),
  },
  { name: 'type_token', reason: 'low_diversity', compute: (s) => movingTypeTokenRatio(s.symbols) },
  {
    name: 'quotes_brackets',
    reason: null,
    compute: (s) => per100((s.text.match(QUOTES_BRACKETS) ?? []).length, s),
  },
  { name: 'repeated_bigrams', reason: 'low_diversity', compute: (s) => repeatedBigramShare(s.symbols) },
  {
    name: 'exclaim_question',
    reason: 'impersonal',
    compute: (s) => per100(countOccurrences(s.text, ['！', '!', '？', '?']), s),
  },
];

export function passageStats(text: string): PassageStats {
  return {
    text,
    symbols: toSymbols(text),
    contentChars: countContentChars(text),
    sentences: sentenceLengths(text),
    clauses: clauseLengths(text),
  };
}

/** The raw (unstandardised) interpretable features of a passage, in DENSE_FEATURES order. */
export function denseFeatures(stats: PassageStats): number[] {
  return DENSE_FEATURES.map((f) => f.compute(stats));
}

/**
 * Hashed character unigrams and bigrams, L2-normalised: bucket -> value. Buckets are FNV-1a of the
 * n-gram (with its order as a prefix) modulo `buckets`.
 */
export function hashedNgrams(stats: PassageStats, buckets: number): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (key: string) => {
    const b = fnv1a(key) % buckets;
    counts.set(b, (counts.get(b) ?? 0) + 1);
  };
  const sy = stats.symbols;
  for (let i = 0; i < sy.length; i++) {
    add(`1${sy[i]}`);
    if (i > 0) add(`2${sy[i - 1]}${sy[i]}`);
  }
  let norm = 0;
  for (const v of counts.values()) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [k, v] of counts) counts.set(k, v / norm);
  return counts;
}
