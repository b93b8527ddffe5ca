import { describe, expect, it } from 'vitest';
import { renumberCitations, type Source, validateCitations } from '../../src/modules/writing/references.ts';

const source = (n: number, title: string): Source => ({
  n,
  title,
  authors: ['王明'],
  year: 2021,
  source: '人口研究',
  type: 'J',
  origin: 'library',
});

describe('citations: only what was retrieved or supplied, numbered by first citation', () => {
  it('removes marks to sources never given and keeps the given numbers of a mixed mark', () => {
    const checked = validateCitations('甲[2]。乙[97]。丙[1,98]。丁[3-5]。', new Set([1, 2, 4]));
    expect(checked.text).toBe('甲[2]。乙。丙[1]。丁[4]。');
    expect(checked.removed).toBe(4);
  });

  it('numbers the cited sources in order of first citation and leaves the uncited out', () => {
    const sources = [source(1, '甲文'), source(2, '乙文'), source(3, '丙文')];
    const { texts, list } = renumberCitations(['先引乙[2]，再引丙[3]。', '又引乙[2]与丙[2,3]。'], sources);
    expect(texts).toEqual(['先引乙[1]，再引丙[2]。', '又引乙[1]与丙[1,2]。']);
    expect(list.map((e) => [e.n, e.source.title])).toEqual([
      [1, '乙文'],
      [2, '丙文'],
    ]);
  });
});
