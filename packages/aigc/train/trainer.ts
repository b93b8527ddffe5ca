/**
 * Logistic regression by AdaGrad over sparse rows, deterministic: a fixed seed orders the examples,
 * and the arithmetic is the same on every machine (no threads, no randomness besides the seed).
 */

export interface Row {
  /** Standardised dense features. */
  dense: number[];
  /** Hashed n-gram buckets and values. */
  buckets: Int32Array;
  values: Float64Array;
  label: 0 | 1;
  weight: number;
}

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  /** L2 penalty per example on the hashed weights. */
  l2Hashed: number;
  /** L2 penalty per example on the dense weights. */
  l2Dense: number;
  seed: number;
}

export interface LinearModel {
  dense: number[];
  hashed: Float64Array;
  bias: number;
}

/** mulberry32: a small seeded generator for the example order. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function marginOf(model: LinearModel, row: Row): number {
  let m = model.bias;
  for (let i = 0; i < row.dense.length; i++) m += model.dense[i]! * row.dense[i]!;
  for (let i = 0; i < row.buckets.length; i++) m += model.hashed[row.buckets[i]!]! * row.values[i]!;
  return m;
}

export function trainLogistic(rows: Row[], denseSize: number, buckets: number, o: TrainOptions): LinearModel {
  const model: LinearModel = {
    dense: new Array(denseSize).fill(0),
    hashed: new Float64Array(buckets),
    bias: 0,
  };
  const gDense = new Array(denseSize).fill(1e-8);
  const gHashed = new Float64Array(buckets).fill(1e-8);
  let gBias = 1e-8;
  const order = rows.map((_, i) => i);
  const random = createRandom(o.seed);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const row = rows[idx]!;
      const p = 1 / (1 + Math.exp(-marginOf(model, row)));
      const err = (p - row.label) * row.weight;
      gBias += err * err;
      model.bias -= (o.learningRate * err) / Math.sqrt(gBias);
      for (let i = 0; i < denseSize; i++) {
        const g = err * row.dense[i]! + o.l2Dense * model.dense[i]!;
        gDense[i] += g * g;
        model.dense[i] -= (o.learningRate * g) / Math.sqrt(gDense[i]);
      }
      for (let k = 0; k < row.buckets.length; k++) {
        const b = row.buckets[k]!;
        const g = err * row.values[k]! + o.l2Hashed * model.hashed[b]!;
        gHashed[b] += g * g;
        model.hashed[b] -= (o.learningRate * g) / Math.sqrt(gHashed[b]!);
      }
    }
  }
  return model;
}

/** ROC-AUC by the rank statistic (ties count half). */
export function rocAuc(scores: number[], labels: number[]): number {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let rankSumPos = 0;
  let pos = 0;
  let i = 0;
  while (i < idx.length) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]!] === scores[idx[i]!]) j++;
    const avgRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (labels[idx[k]!] === 1) {
        rankSumPos += avgRank;
        pos++;
      }
    }
    i = j + 1;
  }
  const neg = labels.length - pos;
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The q-quantile (0–1) of values, by the nearest-rank rule on the sorted values. */
export function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const k = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[k]!;
}
