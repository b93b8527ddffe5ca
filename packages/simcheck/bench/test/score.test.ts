import { describe, expect, it } from 'vitest';
import type { CheckMatch, CheckOutput } from '../engines/types.ts';
import type { TruthDoc } from '../generate.ts';
import { scoreDocs } from '../score.ts';

function doc(id: string, over: Partial<TruthDoc>): TruthDoc {
  return {
    id,
    file: `docs/${id}.txt`,
    type: 'mixed',
    chars: 1000,
    cases: [],
    shortOverlaps: [],
    references: { start: 900, end: 1000 },
    sections: [],
    plagiarismChars: 0,
    quotedChars: 0,
    leakChars: 0,
    leaks: [],
    ...over,
  };
}

function output(matches: CheckMatch[], chars = 1000, quoted = 0): { output: CheckOutput; ms: number } {
  let copied = 0;
  for (const m of matches) copied += m.end - m.start;
  return {
    output: {
      chars,
      copiedChars: copied,
      ratio: copied / chars,
      ratioExcludingQuotes: (copied - quoted) / chars,
      matches,
    },
    ms: 1,
  };
}

const m = (
  start: number,
  end: number,
  sourceId: string,
  sourceStart: number,
  kind: CheckMatch['kind'] = 'verbatim',
): CheckMatch => ({
  start,
  end,
  sourceId,
  sourceStart,
  sourceEnd: sourceStart + (end - start),
  kind,
});

describe('scoring a test set', () => {
  const d = doc('d', {
    cases: [
      { type: 'verbatim', start: 100, end: 200, sourceId: 'a', sourceStart: 0, sourceEnd: 100 },
      { type: 'quoted', start: 300, end: 350, sourceId: 'b', sourceStart: 10, sourceEnd: 60 },
    ],
    shortOverlaps: [{ start: 500, end: 510, sourceId: 'c', sourceStart: 0, sourceEnd: 10 }],
    plagiarismChars: 100,
    quotedChars: 50,
    leaks: [
      [600, 613],
      [950, 963],
    ],
  });

  it('a perfect engine: quoted typed quoted, nothing else flagged, the leak ignored', () => {
    const s = scoreDocs(
      [d],
      { d: output([m(100, 200, 'a', 0), m(300, 350, 'b', 10, 'quoted'), m(950, 963, 'z', 0)], 1000, 50) },
      'mixed',
    );
    expect(s.plagiarism.plagdet).toBe(1);
    expect(s.quoting!.plagdet).toBe(1);
    expect(s.quotedAsPlagiarism).toBe(0);
    expect(s.fpRate).toBe(0);
    expect(s.shortOverlapsHit).toBe(0);
    // the unplanned overlap in the body belongs to the true rate; the one in the reference list does not
    expect(s.rateError).toBeCloseTo(0, 10);
    expect(s.rateErrorTotal).toBeCloseTo(0, 10);
  });

  it('a quote reported as verbatim and a short overlap flagged are false positives', () => {
    const s = scoreDocs(
      [d],
      { d: output([m(100, 200, 'a', 0), m(300, 350, 'b', 10), m(495, 515, 'c', 0)]) },
      'mixed',
    );
    expect(s.plagiarism.precision).toBeCloseTo(1 / 3, 10);
    expect(s.plagiarism.recall).toBe(1);
    expect(s.quotedAsPlagiarism).toBe(1);
    expect(s.quoting!.recall).toBe(0);
    expect(s.fpRate).toBe(0.07);
    expect(s.shortOverlapsHit).toBe(1);
  });

  it('a case reported half, in two pieces, with the wrong source for one piece', () => {
    const s = scoreDocs([d], { d: output([m(100, 150, 'a', 0), m(150, 200, 'x', 50)]) }, 'mixed');
    expect(s.plagiarism.recall).toBe(0.5);
    expect(s.plagiarism.granularity).toBe(1);
    expect(s.plagiarism.precision).toBe(0.5);
    // the wrong-source piece lies inside the planted case: not a false-positive character
    expect(s.fpRate).toBe(0);
  });

  it('one passage typed in two colours is one detection; two passages of one source apart are two', () => {
    const typed = scoreDocs(
      [d],
      { d: output([m(100, 140, 'a', 0, 'paraphrase'), m(140, 200, 'a', 40, 'verbatim')]) },
      'mixed',
    );
    expect(typed.plagiarism.granularity).toBe(1);
    expect(typed.plagiarism.plagdet).toBe(1);
    const apart = scoreDocs([d], { d: output([m(100, 140, 'a', 0), m(150, 200, 'a', 50)]) }, 'mixed');
    expect(apart.plagiarism.granularity).toBe(2);
  });
});
