/**
 * Scoring: the figures Chinese checkers report, for the whole text, per chapter and per source.
 * Input offsets are UTF-16; the report counts and locates in the units asked for (units.ts):
 * Unicode code points by default (the CLI contract), 字数 and UTF-16 offsets for the product.
 */
import type { DocumentStructure } from './structure.ts';
import type { Match, MatchKind, Report, SectionReport, SourceReport } from './types.ts';
import { countedUnits, createOffsetMapper, type ReportUnits } from './units.ts';

/** A final match in UTF-16 offsets (query and source), before conversion. */
export type RawMatch = {
  start: number;
  end: number;
  sourceId: string;
  sourceTitle: string | null;
  sourceText: string;
  sourceStart: number;
  sourceEnd: number;
  kind: MatchKind;
};

const COPIED = 1;
const QUOTED = 2;

/** Build the report from non-overlapping matches, counted and located in `units`. */
export function buildReport(
  text: string,
  structure: DocumentStructure,
  raw: readonly RawMatch[],
  units: ReportUnits = 'codepoints',
): Report {
  const n = text.length;
  const cov = new Uint8Array(n);
  for (const m of raw) cov.fill(m.kind === 'quoted' ? QUOTED : COPIED, m.start, m.end);
  // Prefix sums of counted, copied and quoted characters over the UTF-16 offsets.
  const counted = countedUnits(text, units);
  const charsBefore = new Uint32Array(n + 1);
  const copiedBefore = new Uint32Array(n + 1);
  const quotedBefore = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const k = counted[i]!;
    const c = cov[i]!;
    charsBefore[i + 1] = charsBefore[i]! + k;
    copiedBefore[i + 1] = copiedBefore[i]! + (c ? k : 0);
    quotedBefore[i + 1] = quotedBefore[i]! + (c === QUOTED ? k : 0);
  }
  const count = (from: number, to: number) => ({
    chars: charsBefore[to]! - charsBefore[from]!,
    copied: copiedBefore[to]! - copiedBefore[from]!,
    quoted: quotedBefore[to]! - quotedBefore[from]!,
  });

  const total = count(0, n);
  const toReported = createOffsetMapper(text, units);
  const sourceMappers = new Map<string, (o: number) => number>();

  const sections: SectionReport[] = structure.sections.map((s) => {
    const c = count(s.start, s.end);
    return {
      title: s.title,
      kind: s.kind,
      start: toReported(s.start),
      end: toReported(s.end),
      chars: c.chars,
      copiedChars: c.copied,
      quotedChars: c.quoted,
      ratio: c.chars ? c.copied / c.chars : 0,
      ratioExcludingQuotes: c.chars ? (c.copied - c.quoted) / c.chars : 0,
    };
  });

  const sectionOf = (offset: number): number => {
    for (let i = structure.sections.length - 1; i >= 0; i--)
      if (structure.sections[i]!.start <= offset) return i;
    return 0;
  };

  const perSource = new Map<string, { title: string | null; chars: number; matches: number }>();
  const matches: Match[] = [...raw]
    .sort((a, b) => a.start - b.start)
    .map((m) => {
      let mapper = sourceMappers.get(m.sourceId);
      if (!mapper) {
        mapper = createOffsetMapper(m.sourceText, units);
        sourceMappers.set(m.sourceId, mapper);
      }
      const start = toReported(m.start);
      const end = toReported(m.end);
      // In code points a range's characters are its length; 字数 leave whitespace out.
      const chars = units === 'codepoints' ? end - start : count(m.start, m.end).chars;
      const agg = perSource.get(m.sourceId) ?? { title: m.sourceTitle, chars: 0, matches: 0 };
      agg.chars += chars;
      agg.matches++;
      perSource.set(m.sourceId, agg);
      return {
        start,
        end,
        sourceId: m.sourceId,
        sourceTitle: m.sourceTitle,
        sourceStart: mapper(m.sourceStart),
        sourceEnd: mapper(m.sourceEnd),
        kind: m.kind,
        chars,
        section: sectionOf(m.start),
      };
    });

  const sources: SourceReport[] = [...perSource.entries()]
    .map(([sourceId, a]) => ({
      sourceId,
      title: a.title,
      copiedChars: a.chars,
      ratio: total.chars ? a.chars / total.chars : 0,
      share: total.copied ? a.chars / total.copied : 0,
      matches: a.matches,
    }))
    .sort((a, b) => b.copiedChars - a.copiedChars || (a.sourceId < b.sourceId ? -1 : 1));

  let referenceChars = 0;
  for (const [a, b] of structure.references) referenceChars += count(a, b).chars;

  return {
    chars: total.chars,
    copiedChars: total.copied,
    ratio: total.chars ? total.copied / total.chars : 0,
    quotedChars: total.quoted,
    ratioExcludingQuotes: total.chars ? (total.copied - total.quoted) / total.chars : 0,
    maxSingleSourceRatio: sources[0]?.ratio ?? 0,
    maxSingleSourceId: sources[0]?.sourceId ?? null,
    referenceChars,
    matches,
    sections,
    sources,
  };
}
