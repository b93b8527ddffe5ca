/**
 * Scoring: the figures Chinese checkers report, for the whole text, per chapter and per source.
 * Input offsets are UTF-16; the report speaks Unicode code points (the CLI contract).
 */
import { createCodePointMapper } from './offsets.ts';
import type { DocumentStructure } from './structure.ts';
import type { Match, MatchKind, Report, SectionReport, SourceReport } from './types.ts';

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

function isTrailSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xdc00 || c > 0xdfff || i === 0) return false;
  const p = text.charCodeAt(i - 1);
  return p >= 0xd800 && p <= 0xdbff;
}

/** Build the report from non-overlapping matches. */
export function buildReport(text: string, structure: DocumentStructure, raw: readonly RawMatch[]): Report {
  const cov = new Uint8Array(text.length);
  for (const m of raw) cov.fill(m.kind === 'quoted' ? QUOTED : COPIED, m.start, m.end);

  const count = (from: number, to: number) => {
    let chars = 0;
    let copied = 0;
    let quoted = 0;
    for (let i = from; i < to; i++) {
      if (isTrailSurrogate(text, i)) continue;
      chars++;
      const c = cov[i]!;
      if (c) copied++;
      if (c === QUOTED) quoted++;
    }
    return { chars, copied, quoted };
  };

  const total = count(0, text.length);
  const toCp = createCodePointMapper(text);
  const sourceMappers = new Map<string, (o: number) => number>();

  const sections: SectionReport[] = structure.sections.map((s) => {
    const c = count(s.start, s.end);
    return {
      title: s.title,
      kind: s.kind,
      start: toCp(s.start),
      end: toCp(s.end),
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
        mapper = createCodePointMapper(m.sourceText);
        sourceMappers.set(m.sourceId, mapper);
      }
      const start = toCp(m.start);
      const end = toCp(m.end);
      const agg = perSource.get(m.sourceId) ?? { title: m.sourceTitle, chars: 0, matches: 0 };
      agg.chars += end - start;
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
        chars: end - start,
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
