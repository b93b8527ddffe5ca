import { describe, expect, it } from 'vitest';
import {
  binaryScores,
  coveredRate,
  detects,
  panScores,
  plagdet,
  type Span,
  unionLength,
} from '../measures.ts';

const span = (
  doc: string,
  start: number,
  end: number,
  sourceId: string,
  sourceStart = start,
  sourceEnd = end,
): Span => ({
  doc,
  start,
  end,
  sourceId,
  sourceStart,
  sourceEnd,
});

describe('PAN measures on hand-made cases', () => {
  const s = span('d1', 0, 100, 'src1');

  it('a perfect detection scores 1 everywhere', () => {
    const r = panScores([s], [span('d1', 0, 100, 'src1')]);
    expect(r).toMatchObject({ precision: 1, recall: 1, granularity: 1, plagdet: 1 });
  });

  it('half a case found: recall counts both sides (50+50)/(100+100)', () => {
    const r = panScores([s], [span('d1', 0, 50, 'src1')]);
    expect(r.precision).toBe(1);
    expect(r.recall).toBe(0.5);
    expect(r.plagdet).toBeCloseTo(2 / 3, 10);
  });

  it('a case reported in two pieces has granularity 2: plagdet = 1/log2(3)', () => {
    const r = panScores([s], [span('d1', 0, 50, 'src1'), span('d1', 50, 100, 'src1')]);
    expect(r.precision).toBe(1);
    expect(r.recall).toBe(1);
    expect(r.granularity).toBe(2);
    expect(r.plagdet).toBeCloseTo(1 / Math.log2(3), 10);
  });

  it('overlapping detections are counted once in recall (union), but both count for granularity', () => {
    const r = panScores([s], [span('d1', 0, 60, 'src1'), span('d1', 40, 100, 'src1')]);
    expect(r.recall).toBe(1);
    expect(r.precision).toBe(1);
    expect(r.granularity).toBe(2);
  });

  it('the right offsets but the wrong source detect nothing', () => {
    const r = panScores([s], [span('d1', 0, 100, 'other')]);
    expect(r).toMatchObject({ precision: 0, recall: 0, plagdet: 0, granularity: 1 });
  });

  it('a detection must overlap on the source side too', () => {
    expect(detects(span('d1', 0, 100, 'src1', 500, 600), s)).toBe(false);
    expect(detects(span('d1', 0, 100, 'src1', 99, 600), s)).toBe(true);
    expect(detects(span('d2', 0, 100, 'src1'), s)).toBe(false);
  });

  it('a detection twice as long as the case has precision 0.5', () => {
    const r = panScores([s], [span('d1', 0, 200, 'src1')]);
    expect(r.precision).toBe(0.5);
    expect(r.recall).toBe(1);
    expect(r.plagdet).toBeCloseTo(2 / 3, 10);
  });

  it('a false positive in another document halves macro precision', () => {
    const r = panScores([s], [span('d1', 0, 100, 'src1'), span('clean', 10, 40, 'src9')]);
    expect(r.precision).toBe(0.5);
    expect(r.recall).toBe(1);
  });

  it('macro recall averages over cases, not characters', () => {
    const small = span('d1', 200, 220, 'src2', 0, 20);
    const r = panScores([s, small], [span('d1', 0, 100, 'src1')]);
    expect(r.recall).toBe(0.5);
  });

  it('empty sets follow PAN: none and none is perfect, one side empty is zero', () => {
    expect(panScores([], []).plagdet).toBe(1);
    expect(panScores([s], []).plagdet).toBe(0);
    expect(panScores([], [s]).precision).toBe(0);
  });

  it('plagdet is F1 divided by log2(1 + granularity)', () => {
    expect(plagdet(1, 1, 1)).toBe(1);
    expect(plagdet(0.8, 0.6, 1)).toBeCloseTo((2 * 0.8 * 0.6) / 1.4, 10);
    expect(plagdet(1, 1, 3)).toBe(0.5);
    expect(plagdet(0, 0, 1)).toBe(0);
  });
});

describe('character helpers', () => {
  it('unionLength merges overlapping and touching ranges and clips', () => {
    expect(
      unionLength([
        [0, 10],
        [5, 15],
        [20, 25],
      ]),
    ).toBe(20);
    expect(
      unionLength(
        [
          [0, 10],
          [10, 12],
        ],
        5,
        11,
      ),
    ).toBe(6);
    expect(unionLength([])).toBe(0);
  });

  it('coveredRate is the union of flagged characters over the document length', () => {
    expect(
      coveredRate(
        [
          { start: 0, end: 10 },
          { start: 5, end: 20 },
        ],
        200,
      ),
    ).toBe(0.1);
    expect(coveredRate([{ start: 190, end: 260 }], 200)).toBe(0.05);
  });

  it('binaryScores', () => {
    const b = binaryScores([
      { gold: true, predicted: true },
      { gold: true, predicted: false },
      { gold: false, predicted: true },
      { gold: false, predicted: false },
      { gold: false, predicted: false },
    ]);
    expect(b).toMatchObject({ tp: 1, fn: 1, fp: 1, tn: 2, precision: 0.5, recall: 0.5, accuracy: 0.6 });
  });
});
