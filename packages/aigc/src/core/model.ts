/**
 * The model: logistic regression over standardised interpretable features and hashed character
 * n-grams. Its file (src/model/aigc-model.json) is written by train/train.ts; this module only reads
 * the value it is given.
 */
import {
  DENSE_FEATURES,
  denseFeatures,
  hashedNgrams,
  type PassageStats,
  type ReasonCode,
} from './features.ts';

export interface AigcModel {
  /** e.g. "aigc-1"; changes whenever features, data or training change. */
  version: string;
  buckets: number;
  dense: { names: string[]; mean: number[]; std: number[]; weights: number[] };
  /** One weight per hash bucket. */
  hashed: number[];
  bias: number;
  /**
   * The margin of the threshold chosen on held-out human text (tuning split): the index is
   * 100·σ(margin − thresholdMargin), so a passage at the threshold scores 50.
   */
  thresholdMargin: number;
  /** Fewest content characters (Han, letters, digits) a passage needs for a reliable figure. */
  minReliableChars: number;
  /** How the file was made: data, split, figures on the tuning split. Informational. */
  provenance: Record<string, unknown>;
}

export interface PassageScore {
  /** The linear margin (log-odds before the threshold shift). */
  margin: number;
  /** The AIGC index 0–100; 50 is the threshold. */
  index: number;
  /** Positive contributions to the margin by reason. */
  contributions: Map<ReasonCode, number>;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Standardised dense features of a passage for this model. */
export function standardise(model: AigcModel, raw: number[]): number[] {
  return raw.map((x, i) => (x - model.dense.mean[i]!) / (model.dense.std[i]! || 1));
}

export function scorePassage(model: AigcModel, stats: PassageStats): PassageScore {
  if (model.dense.names.length !== DENSE_FEATURES.length) {
    throw new Error(
      `model ${model.version} has ${model.dense.names.length} features, code has ${DENSE_FEATURES.length}`,
    );
  }
  const z = standardise(model, denseFeatures(stats));
  const contributions = new Map<ReasonCode, number>();
  let margin = model.bias;
  for (let i = 0; i < z.length; i++) {
    const c = model.dense.weights[i]! * z[i]!;
    margin += c;
    const reason = DENSE_FEATURES[i]!.reason;
    if (reason && c > 0) contributions.set(reason, (contributions.get(reason) ?? 0) + c);
  }
  let ngram = 0;
  for (const [b, v] of hashedNgrams(stats, model.buckets)) ngram += model.hashed[b]! * v;
  margin += ngram;
  if (ngram > 0) contributions.set('ngram', ngram);
  const index = Math.round(1000 * sigmoid(margin - model.thresholdMargin)) / 10;
  return { margin, index, contributions };
}
