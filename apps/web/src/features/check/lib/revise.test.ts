import type { LiveFigures } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { compareVersions, flaggedFirst, revisableParagraphs } from './revise';

const text = '第一章 绪论\n自己写的段落，没有任何复制。\n抄来的句子在这里出现了。\n\n另一段自己的话。';
const report = {
  text,
  sections: [{ start: 0, title: '第一章 绪论' }] as never,
  matches: [{ index: 0, start: 22, end: 30, kind: 'verbatim', chars: 8, section: 0, sourceNo: 1 }] as never,
};

const figures = (ratio: number, sections: [string, number][]): LiveFigures => ({
  ratio,
  ratioExcludingQuotes: ratio,
  maxSingleSourceRatio: ratio,
  maxSingleSourceTitle: null,
  copiedChars: 0,
  totalChars: 100,
  sourceCount: 1,
  aigcScore: 20,
  aigcReliable: false,
  sections: sections.map(([title, r], index) => ({
    index,
    title,
    chars: 10,
    copiedChars: 0,
    ratio: r,
    ratioExcludingQuotes: r,
  })),
});

describe('revise in the report (pure part)', () => {
  it('lists the report lines as paragraphs with their marked share, headings and empty lines apart', () => {
    const paragraphs = revisableParagraphs(report);
    expect(paragraphs.map((p) => p.index)).toEqual([0, 1, 2, 4]);
    expect(paragraphs[0]!.heading).toBe(true);
    const copied = paragraphs.find((p) => p.index === 2)!;
    expect(copied.copiedChars).toBe(8);
    expect(copied.rate).toBeCloseTo(8 / 12);
    expect(copied.sourceNos).toEqual([1]);
    const { flagged, others } = flaggedFirst(paragraphs);
    expect(flagged.map((p) => p.index)).toEqual([2]);
    expect(others.map((p) => p.index)).toEqual([1, 4]);
  });

  it('compares two versions: the paragraphs that differ and each chapter before and after', () => {
    const lines = text.split('\n');
    const original = { edits: [], figures: figures(0.3, [['第一章 绪论', 0.3]]) };
    const v1 = {
      edits: [{ index: 2, text: '改写后的句子。' }],
      figures: figures(0.1, [['第一章 绪论', 0.1]]),
    };
    const result = compareVersions(lines, original, v1);
    expect(result.changed).toEqual([{ index: 2, before: lines[2], after: '改写后的句子。' }]);
    expect(result.chapters).toEqual([{ title: '第一章 绪论', before: 0.3, after: 0.1 }]);
    expect(compareVersions(lines, v1, v1).changed).toEqual([]);
  });
});
