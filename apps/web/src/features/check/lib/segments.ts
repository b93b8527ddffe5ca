import type { MatchKind, ReportMatch, ReportSection } from '../types';

/**
 * The marked full text of the web report, computed once per report (memoise the result): the text
 * is cut into runs at every match boundary, each run owned by at most one match, then grouped into
 * paragraphs (the text's lines) and chunks (a few thousand characters each, never across a chapter)
 * so the page renders an 80,000-character thesis as a few hundred paragraph elements with one
 * element per marked run — no per-character spans.
 *
 * Overlaps (the engine reports none, but a report must never break on one): where matches overlap,
 * the more serious kind owns the characters — verbatim (red) over paraphrase (orange) over quoted
 * (green) — and between equal kinds the match that starts first (then the lower index).
 */

/** A run of text: [start, end) into the report's text, owned by `match` (-1: unmarked). */
export interface Segment {
  start: number;
  end: number;
  kind: MatchKind | null;
  match: number;
}

export interface Paragraph {
  /** Offsets of the line in the text, end exclusive (the '\n' not included). */
  start: number;
  end: number;
  segments: Segment[];
  /** Index into the report's sections. */
  section: number;
  /** The line is its section's title. */
  heading: boolean;
}

export interface Chunk {
  /** Position in `chunks`. */
  index: number;
  start: number;
  end: number;
  section: number;
  paragraphs: Paragraph[];
  /** Characters of the chunk (for the placeholder height of content-visibility). */
  chars: number;
  /** Matches owning a run in this chunk, ascending. */
  matches: number[];
}

export interface MarkedText {
  segments: Segment[];
  paragraphs: Paragraph[];
  chunks: Chunk[];
  /** Match index -> the chunk of its first run (-1 when the match owns no character). */
  chunkOfMatch: Map<number, number>;
  /** Section index -> the chunk it starts in. */
  chunkOfSection: Map<number, number>;
  /** Match indices in reading order of their first run (for 上一处 / 下一处). */
  order: number[];
}

const SEVERITY: Record<MatchKind, number> = { verbatim: 3, paraphrase: 2, quoted: 1 };

type Range = Pick<ReportMatch, 'index' | 'start' | 'end' | 'kind'>;

/** Does `a` own a character that `b` also covers? */
function wins(a: Range, b: Range): boolean {
  const sa = SEVERITY[a.kind] ?? 0;
  const sb = SEVERITY[b.kind] ?? 0;
  if (sa !== sb) return sa > sb;
  if (a.start !== b.start) return a.start < b.start;
  return a.index < b.index;
}

/**
 * The runs covering [0, length): unmarked runs and one run per stretch owned by one match.
 * Matches outside the text are clipped; empty or invalid ones are ignored.
 */
export function computeSegments(length: number, matches: readonly Range[]): Segment[] {
  const valid: Range[] = [];
  for (const m of matches) {
    if (!Number.isFinite(m.start) || !Number.isFinite(m.end)) continue;
    const start = Math.max(0, Math.floor(m.start));
    const end = Math.min(length, Math.floor(m.end));
    if (end > start) valid.push({ index: m.index, start, end, kind: m.kind });
  }
  if (valid.length === 0) return length > 0 ? [{ start: 0, end: length, kind: null, match: -1 }] : [];

  const bounds = new Set<number>([0, length]);
  for (const m of valid) {
    bounds.add(m.start);
    bounds.add(m.end);
  }
  const points = [...bounds].sort((a, b) => a - b);
  const byStart = [...valid].sort((a, b) => a.start - b.start || a.index - b.index);

  const out: Segment[] = [];
  const active: Range[] = [];
  let next = 0;
  for (let i = 0; i < points.length - 1; i++) {
    const from = points[i]!;
    const to = points[i + 1]!;
    while (next < byStart.length && byStart[next]!.start <= from) active.push(byStart[next++]!);
    // Drop the matches that ended.
    for (let j = active.length - 1; j >= 0; j--) if (active[j]!.end <= from) active.splice(j, 1);
    let owner: Range | null = null;
    for (const m of active) if (!owner || wins(m, owner)) owner = m;
    const match = owner ? owner.index : -1;
    const last = out[out.length - 1];
    if (last && last.match === match && last.end === from) last.end = to;
    else out.push({ start: from, end: to, kind: owner ? owner.kind : null, match });
  }
  return out;
}

/** The section a text offset falls in (the last one starting at or before it). */
function sectionAt(sections: readonly Pick<ReportSection, 'start'>[], offset: number, hint: number): number {
  let s = Math.max(0, hint);
  while (s + 1 < sections.length && sections[s + 1]!.start <= offset) s++;
  return sections.length ? s : 0;
}

/** Target size of a chunk in characters. */
export const CHUNK_CHARS = 3000;

/** Segments, paragraphs and chunks of a report's text (pure; call it once per report). */
export function buildMarkedText(
  text: string,
  matches: readonly Range[],
  sections: readonly Pick<ReportSection, 'start' | 'title'>[],
  chunkChars = CHUNK_CHARS,
): MarkedText {
  const segments = computeSegments(text.length, matches);

  // Paragraphs: the text's lines, each with the part of the runs inside it.
  const paragraphs: Paragraph[] = [];
  let seg = 0;
  let section = 0;
  let lineStart = 0;
  const headingSeen = new Set<number>();
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (text.slice(lineStart, lineEnd).trim() !== '') {
      while (seg < segments.length && segments[seg]!.end <= lineStart) seg++;
      const parts: Segment[] = [];
      for (let k = seg; k < segments.length && segments[k]!.start < lineEnd; k++) {
        const s = segments[k]!;
        parts.push({ ...s, start: Math.max(s.start, lineStart), end: Math.min(s.end, lineEnd) });
      }
      section = sectionAt(sections, lineStart, section);
      const title = sections[section]?.title.trim();
      const heading =
        !headingSeen.has(section) &&
        title !== undefined &&
        title !== '' &&
        text.slice(lineStart, lineEnd).trim() === title;
      if (heading) headingSeen.add(section);
      paragraphs.push({ start: lineStart, end: lineEnd, segments: parts, section, heading });
    }
    if (lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }

  // Chunks: consecutive paragraphs of one section, up to about chunkChars characters.
  const chunks: Chunk[] = [];
  const chunkOfMatch = new Map<number, number>();
  const chunkOfSection = new Map<number, number>();
  const order: number[] = [];
  let current: Chunk | null = null;
  for (const p of paragraphs) {
    const chars = p.end - p.start;
    if (!current || current.section !== p.section || current.chars + chars > chunkChars) {
      current = {
        index: chunks.length,
        start: p.start,
        end: p.end,
        section: p.section,
        paragraphs: [],
        chars: 0,
        matches: [],
      };
      chunks.push(current);
      if (!chunkOfSection.has(p.section)) chunkOfSection.set(p.section, current.index);
    }
    current.paragraphs.push(p);
    current.end = p.end;
    current.chars += chars;
    for (const s of p.segments) {
      if (s.match < 0) continue;
      if (current.matches[current.matches.length - 1] !== s.match && !current.matches.includes(s.match))
        current.matches.push(s.match);
      if (!chunkOfMatch.has(s.match)) {
        chunkOfMatch.set(s.match, current.index);
        order.push(s.match);
      }
    }
  }
  // Sections without a paragraph of their own (empty) point at the next chunk.
  for (let i = 0; i < sections.length; i++) {
    if (chunkOfSection.has(i)) continue;
    const start = sections[i]!.start;
    const chunk = chunks.find((c) => c.end > start);
    if (chunk) chunkOfSection.set(i, chunk.index);
  }
  return { segments, paragraphs, chunks, chunkOfMatch, chunkOfSection, order };
}
