import { describe, expect, it } from 'vitest';
import type { MatchKind } from '../types';
import { buildMarkedText, computeSegments } from './segments';

const m = (index: number, start: number, end: number, kind: MatchKind) => ({ index, start, end, kind });

/** The runs as compact tuples [start, end, match]. */
const runs = (length: number, matches: ReturnType<typeof m>[]) =>
  computeSegments(length, matches).map((s) => [s.start, s.end, s.match]);

describe('computeSegments (marks of the full text)', () => {
  it('covers the whole text with one unmarked run when nothing matched', () => {
    expect(runs(10, [])).toEqual([[0, 10, -1]]);
    expect(runs(0, [])).toEqual([]);
  });

  it('cuts the text at the match boundaries and keeps the kind of each mark', () => {
    const segments = computeSegments(20, [
      m(0, 2, 5, 'verbatim'),
      m(1, 5, 9, 'quoted'),
      m(2, 15, 20, 'paraphrase'),
    ]);
    expect(segments).toEqual([
      { start: 0, end: 2, kind: null, match: -1 },
      { start: 2, end: 5, kind: 'verbatim', match: 0 },
      { start: 5, end: 9, kind: 'quoted', match: 1 },
      { start: 9, end: 15, kind: null, match: -1 },
      { start: 15, end: 20, kind: 'paraphrase', match: 2 },
    ]);
  });

  it('gives overlapping characters to the more serious kind: red over orange over green', () => {
    // quoted 0–10, verbatim 4–8 inside it, paraphrase 6–14 across the end of both
    expect(runs(16, [m(0, 0, 10, 'quoted'), m(1, 4, 8, 'verbatim'), m(2, 6, 14, 'paraphrase')])).toEqual([
      [0, 4, 0],
      [4, 8, 1],
      [8, 14, 2],
      [14, 16, -1],
    ]);
  });

  it('gives overlapping characters of the same kind to the match that starts first', () => {
    expect(runs(12, [m(0, 5, 12, 'verbatim'), m(1, 2, 8, 'verbatim')])).toEqual([
      [0, 2, -1],
      [2, 8, 1],
      [8, 12, 0],
    ]);
    // same start: the lower index
    expect(runs(6, [m(3, 0, 4, 'paraphrase'), m(1, 0, 6, 'paraphrase')])).toEqual([[0, 6, 1]]);
  });

  it('clips matches to the text and ignores empty or broken ones', () => {
    expect(
      runs(10, [
        m(0, -5, 3, 'verbatim'),
        m(1, 8, 50, 'quoted'),
        m(2, 6, 6, 'verbatim'),
        m(3, 7, 5, 'verbatim'),
        m(4, Number.NaN, 2, 'verbatim'),
      ]),
    ).toEqual([
      [0, 3, 0],
      [3, 8, -1],
      [8, 10, 1],
    ]);
  });

  it('merges a match that another one interrupts into separate runs of the same match', () => {
    expect(runs(10, [m(0, 0, 10, 'paraphrase'), m(1, 4, 6, 'verbatim')])).toEqual([
      [0, 4, 0],
      [4, 6, 1],
      [6, 10, 0],
    ]);
  });
});

describe('buildMarkedText (paragraphs and chunks)', () => {
  const text = '第1章 绪论\n这是第一段。抄袭的句子在这里。\n\n这是第二段。\n第2章 方法\n引用“原文”结束。';
  const sections = [
    { start: 0, title: '第1章 绪论' },
    { start: text.indexOf('第2章'), title: '第2章 方法' },
  ];
  const copied = text.indexOf('抄袭');
  const quoted = text.indexOf('“原文”');

  it('splits the text into its non-empty lines with the runs inside each, and marks headings', () => {
    const marked = buildMarkedText(
      text,
      [m(0, copied, copied + 9, 'verbatim'), m(1, quoted, quoted + 4, 'quoted')],
      sections,
    );
    expect(marked.paragraphs.map((p) => text.slice(p.start, p.end))).toEqual([
      '第1章 绪论',
      '这是第一段。抄袭的句子在这里。',
      '这是第二段。',
      '第2章 方法',
      '引用“原文”结束。',
    ]);
    expect(marked.paragraphs.map((p) => p.heading)).toEqual([true, false, false, true, false]);
    expect(marked.paragraphs.map((p) => p.section)).toEqual([0, 0, 0, 1, 1]);
    const second = marked.paragraphs[1]!;
    expect(second.segments.map((s) => [text.slice(s.start, s.end), s.kind])).toEqual([
      ['这是第一段。', null],
      ['抄袭的句子在这里。', 'verbatim'],
    ]);
    // every character of every paragraph is in exactly one run
    for (const p of marked.paragraphs) {
      expect(p.segments.map((s) => text.slice(s.start, s.end)).join('')).toBe(text.slice(p.start, p.end));
    }
  });

  it('splits a match across lines without losing it, and lists it once in reading order', () => {
    const start = text.indexOf('在这里');
    const end = text.indexOf('第二段') + 3;
    const marked = buildMarkedText(text, [m(0, start, end, 'paraphrase')], sections);
    const owned = marked.paragraphs.flatMap((p) => p.segments.filter((s) => s.match === 0));
    expect(owned.map((s) => text.slice(s.start, s.end))).toEqual(['在这里。', '这是第二段']);
    expect(marked.order).toEqual([0]);
  });

  it('starts a new chunk at every chapter and when a chunk is full, and knows where each match is', () => {
    const marked = buildMarkedText(
      text,
      [m(0, copied, copied + 2, 'verbatim'), m(1, quoted, quoted + 4, 'quoted')],
      sections,
      12,
    );
    expect(marked.chunks.every((c) => c.paragraphs.every((p) => p.section === c.section))).toBe(true);
    expect(marked.chunks.length).toBeGreaterThan(2);
    expect(marked.chunkOfSection.get(0)).toBe(0);
    const chunkOfSecond = marked.chunkOfSection.get(1)!;
    expect(marked.chunks[chunkOfSecond]!.paragraphs[0]!.heading).toBe(true);
    expect(marked.chunks[marked.chunkOfMatch.get(1)!]!.matches).toContain(1);
    expect(marked.order).toEqual([0, 1]);
  });

  // Its time is measured by `npm run bench` (scripts/bench-report-page.ts), not here.
  it('handles an 80,000-character thesis with 600 matches without per-character runs', () => {
    const para = '城市交通拥堵治理的模式与路径研究表明公共服务供给绩效评估具有显著影响。'.repeat(6);
    const lines: string[] = [];
    while (lines.join('\n').length < 80_000) lines.push(para);
    const big = lines.join('\n');
    const matches = [];
    for (let i = 0; i < 600; i++) {
      const start = i * 130 + 5;
      matches.push(
        m(i, start, start + 40 + (i % 30), (['verbatim', 'paraphrase', 'quoted'] as const)[i % 3]),
      );
    }
    const secs = Array.from({ length: 8 }, (_, i) => ({ start: i * 10_000, title: `第${i + 1}章` }));
    const marked = buildMarkedText(big, matches, secs);
    const runsTotal = marked.paragraphs.reduce((n, p) => n + p.segments.length, 0);
    expect(runsTotal).toBeLessThan(2 * 600 + marked.paragraphs.length * 2);
    expect(marked.order).toHaveLength(600);
    expect(marked.chunks.length).toBeGreaterThan(20);
  });
});
