import { describe, expect, it } from 'vitest';
import { splitOf } from '../train/data.ts';
import { createRandom, quantile, rocAuc, trainLogistic } from '../train/trainer.ts';

describe('training helpers', () => {
  it('computes ROC-AUC with ties counted half', () => {
    expect(rocAuc([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1])).toBe(1);
    expect(rocAuc([0.9, 0.8, 0.2, 0.1], [0, 0, 1, 1])).toBe(0);
    expect(rocAuc([0.5, 0.5], [0, 1])).toBe(0.5);
    expect(Number.isNaN(rocAuc([0.1], [1]))).toBe(true);
  });

  it('takes quantiles by nearest rank', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 1)).toBe(5);
  });

  it('splits by a hash of the key: the same key always lands in the same place, about 30% in test', () => {
    expect(splitOf('同一段文字')).toEqual(splitOf('同一段文字'));
    const keys = Array.from({ length: 2000 }, (_, i) => `k${i}`);
    const test = keys.filter((k) => splitOf(k).split === 'test').length / keys.length;
    expect(test).toBeGreaterThan(0.25);
    expect(test).toBeLessThan(0.35);
  });

  it('learns a separable problem the same way twice', () => {
    const random = createRandom(1);
    const rows = Array.from({ length: 200 }, () => {
      const x = random() * 2 - 1;
      return {
        dense: [x],
        buckets: new Int32Array(0),
        values: new Float64Array(0),
        label: (x > 0 ? 1 : 0) as 0 | 1,
        weight: 1,
      };
    });
    const o = { epochs: 5, learningRate: 0.5, l2Hashed: 0, l2Dense: 0, seed: 7 };
    const a = trainLogistic(rows, 1, 4, o);
    expect(a.dense[0]).toBeGreaterThan(1);
    expect(trainLogistic(rows, 1, 4, o)).toEqual(a);
  });
});
