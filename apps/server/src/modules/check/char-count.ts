import { analyzeStructure, type HeadingHint, type Report, type SourceReport } from '@kyfw/simcheck';
import { createUtf16Mapper } from './report/report-model.ts';

/**
 * 字数, the one character count a student sees: code points other than whitespace (spaces, tabs,
 * line breaks, blank lines and full-width spaces do not count), as Chinese checkers count it. The
 * upload's `chars` (and so the price) and the report's 总字数 / 重复字数 and every ratio derived
 * from them use it (docs/api/check.md, "字数").
 *
 * The engine counts every code point (its CLI contract `chars`); `recountReport` turns its report
 * into this count without touching offsets or matches.
 */
export function countChars(text: string): number {
  let n = 0;
  for (const ch of text) if (!/\s/u.test(ch)) n++;
  return n;
}

const COPIED = 1;
const QUOTED = 2;

/**
 * The engine's report with every count and ratio in 字数 (whitespace not counted): 总字数,
 * 重复字数, quoted characters, the reference list, each chapter, each source and each match.
 * 总文字复制比 = 重复字数 / 总字数 and 去除引用文献复制比 = (重复字数 − 引用字数) / 总字数 still
 * hold; sources are ordered again by their recounted characters, so 单篇最大文字复制比 stays the
 * largest. `text` and `headings` are what the engine was given (the reference list is found the
 * same way).
 */
export function recountReport(text: string, headings: readonly HeadingHint[], report: Report): Report {
  const n = text.length;
  // counted[i]: UTF-16 index i starts a code point that is not whitespace.
  const countedBefore = new Uint32Array(n + 1);
  const cov = new Uint8Array(n);
  const toUtf16 = createUtf16Mapper(text);
  for (const m of report.matches)
    cov.fill(m.kind === 'quoted' ? QUOTED : COPIED, toUtf16(m.start), toUtf16(m.end));
  const copiedBefore = new Uint32Array(n + 1);
  const quotedBefore = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const trail = c >= 0xdc00 && c <= 0xdfff && i > 0 && isLead(text.charCodeAt(i - 1));
    const counted = !trail && (isLead(c) || !/\s/u.test(text[i]!)) ? 1 : 0;
    countedBefore[i + 1] = countedBefore[i]! + counted;
    copiedBefore[i + 1] = copiedBefore[i]! + (counted && cov[i] ? 1 : 0);
    quotedBefore[i + 1] = quotedBefore[i]! + (counted && cov[i] === QUOTED ? 1 : 0);
  }
  const count = (from: number, to: number) => ({
    chars: countedBefore[to]! - countedBefore[from]!,
    copied: copiedBefore[to]! - copiedBefore[from]!,
    quoted: quotedBefore[to]! - quotedBefore[from]!,
  });

  const total = count(0, n);
  const ratio = (part: number, whole: number) => (whole ? part / whole : 0);

  const matches = report.matches.map((m) => ({ ...m, chars: count(toUtf16(m.start), toUtf16(m.end)).chars }));

  const perSource = new Map<string, number>();
  for (const m of matches) perSource.set(m.sourceId, (perSource.get(m.sourceId) ?? 0) + m.chars);
  const sources: SourceReport[] = report.sources
    .map((s) => {
      const copied = perSource.get(s.sourceId) ?? 0;
      return {
        ...s,
        copiedChars: copied,
        ratio: ratio(copied, total.chars),
        share: ratio(copied, total.copied),
      };
    })
    .sort((a, b) => b.copiedChars - a.copiedChars || (a.sourceId < b.sourceId ? -1 : 1));

  const sections = report.sections.map((s) => {
    const c = count(toUtf16(s.start), toUtf16(s.end));
    return {
      ...s,
      chars: c.chars,
      copiedChars: c.copied,
      quotedChars: c.quoted,
      ratio: ratio(c.copied, c.chars),
      ratioExcludingQuotes: ratio(c.copied - c.quoted, c.chars),
    };
  });

  let referenceChars = 0;
  for (const [a, b] of analyzeStructure(text, headings).references) referenceChars += count(a, b).chars;

  return {
    ...report,
    chars: total.chars,
    copiedChars: total.copied,
    ratio: ratio(total.copied, total.chars),
    quotedChars: total.quoted,
    ratioExcludingQuotes: ratio(total.copied - total.quoted, total.chars),
    maxSingleSourceRatio: sources[0]?.ratio ?? 0,
    maxSingleSourceId: sources[0]?.sourceId ?? null,
    referenceChars,
    matches,
    sections,
    sources,
  };
}

function isLead(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
