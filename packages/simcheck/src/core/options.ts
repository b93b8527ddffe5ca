/**
 * Engine options as one frozen value object (the dolos style): every stage reads its settings
 * from here, `defaultOptions` documents the defaults, and `resolveOptions` merges a partial
 * override and validates it.
 */

import type { ReportUnits } from './units.ts';

export type SegmenterName = 'jieba' | 'intl';

export type Options = {
  /** Shortest run of matching normalised characters that counts as copied (CNKI's 13-character rule). */
  readonly minRun: number;
  /**
   * k-gram length for fingerprints. The winnowing window is derived: w = minRun - k + 1, so that
   * every shared run of `minRun` characters is guaranteed a shared fingerprint.
   */
  readonly k: number;
  /** Look up every k-gram of the input in the index, not only its winnowed fingerprints (finds
   * the sources of heavily rewritten passages; costs a larger lookup). */
  readonly lookupAllKgrams: boolean;
  /** How many candidate sources (ranked by weighted shared fingerprints) are aligned in detail at
   * least, whatever their evidence. */
  readonly maxCandidates: number;
  /**
   * Beyond `maxCandidates`, further candidates are taken while each still brings at least
   * `minMarginalWeight` of fingerprint weight not covered by those before it (a document copied from
   * hundreds of sources is reported in full), up to this many in all.
   */
  readonly candidateLimit: number;
  /** Fingerprint weight a candidate beyond `maxCandidates` must add (1 = one fingerprint found in one
   * library document; a shared run of 13 characters brings about 2–3). */
  readonly minMarginalWeight: number;
  /** How many of the best-ranked candidates the word-level stage compares with. */
  readonly maxParaphraseCandidates: number;
  /** Two exact matches of one source merge into one passage when separated by at most this many
   * normalised characters in the input (and in the source). */
  readonly mergeGap: number;
  /** Run the word-level (paraphrase) stage. */
  readonly paraphrase: boolean;
  /** Word segmenter for the paraphrase stage: jieba-wasm or the ICU segmenter built into Node. */
  readonly segmenter: SegmenterName;
  /** Minimum similarity (0..1, mixed content-word and character evidence) for a sentence window to
   * count as a paraphrase of a source window. */
  readonly paraphraseThreshold: number;
  /** Lower similarity that suffices for a sentence next to an accepted paraphrase or exact passage
   * of the same source (hysteresis: rewritten passages are rewritten sentence after sentence). */
  readonly paraphraseExtendThreshold: number;
  /** Minimum order score (longest common subsequence of content characters / the longer window)
   * for a paraphrase: a rewrite keeps the order of what it did not change, while honest writing on
   * the same topic shares vocabulary in another order. Extension uses this minus 0.1. */
  readonly paraphraseMinOrder: number;
  /** Overlap at which the order score is not required (words shuffled inside a sentence). */
  readonly paraphraseOrderFreeThreshold: number;
  /** Minimum number of shared content words for a paraphrase match. */
  readonly paraphraseMinSharedWords: number;
  /** A sentence shorter than this many normalised characters is never a paraphrase match on its own. */
  readonly paraphraseMinChars: number;
  /** A fingerprint with more postings than this in the library (about: found in more documents) is a
   * stock phrase: it is ignored when ranking candidates, and its postings are fetched only for the
   * chosen candidates, as alignment seeds; alignment itself is exact and unaffected. */
  readonly maxDocFrequency: number;
  /**
   * What the report counts and locates in (units.ts): `'codepoints'` (every code point, code point
   * offsets; the CLI contract) or `'product'` (字数 without whitespace, UTF-16 offsets; what the
   * paper-check service shows). The matches are the same either way.
   */
  readonly units: ReportUnits;
};

export const defaultOptions: Options = Object.freeze({
  minRun: 13,
  k: 5,
  lookupAllKgrams: true,
  maxCandidates: 200,
  candidateLimit: 2000,
  minMarginalWeight: 2,
  maxParaphraseCandidates: 60,
  mergeGap: 12,
  paraphrase: true,
  segmenter: 'intl',
  paraphraseThreshold: 0.35,
  paraphraseExtendThreshold: 0.3,
  paraphraseMinOrder: 0.45,
  paraphraseOrderFreeThreshold: 0.7,
  paraphraseMinSharedWords: 4,
  paraphraseMinChars: 12,
  maxDocFrequency: 300,
  units: 'codepoints',
} satisfies Options);

/** Winnowing window size for the given options: w = t - k + 1 (Schleimer et al. 2003, §3). */
export function getWindow(options: Pick<Options, 'minRun' | 'k'>): number {
  return options.minRun - options.k + 1;
}

/**
 * Merge a partial override into the defaults and freeze the result.
 * @throws RangeError when k is not in 2..minRun or a number is out of range.
 */
export function resolveOptions(overrides: Partial<Options> = {}): Options {
  const merged: Options = { ...defaultOptions, ...overrides };
  if (!Number.isInteger(merged.minRun) || merged.minRun < 2)
    throw new RangeError('minRun must be an integer ≥ 2');
  if (!Number.isInteger(merged.k) || merged.k < 2 || merged.k > merged.minRun) {
    throw new RangeError('k must be an integer in 2..minRun');
  }
  if (!Number.isInteger(merged.maxCandidates) || merged.maxCandidates < 1) {
    throw new RangeError('maxCandidates must be a positive integer');
  }
  if (!Number.isInteger(merged.candidateLimit) || merged.candidateLimit < merged.maxCandidates) {
    throw new RangeError('candidateLimit must be an integer ≥ maxCandidates');
  }
  if (!(merged.minMarginalWeight > 0)) throw new RangeError('minMarginalWeight must be > 0');
  if (merged.mergeGap < 0) throw new RangeError('mergeGap must be ≥ 0');
  if (merged.paraphraseThreshold <= 0 || merged.paraphraseThreshold > 1) {
    throw new RangeError('paraphraseThreshold must be in (0, 1]');
  }
  if (
    merged.paraphraseExtendThreshold <= 0 ||
    merged.paraphraseExtendThreshold > merged.paraphraseThreshold
  ) {
    throw new RangeError('paraphraseExtendThreshold must be in (0, paraphraseThreshold]');
  }
  if (merged.units !== 'codepoints' && merged.units !== 'product') {
    throw new RangeError("units must be 'codepoints' or 'product'");
  }
  return Object.freeze(merged);
}
