import { type LiveFigures, liveFiguresOfReport, type ReportModel, type ReportSection } from '@kyfw/contracts';

/**
 * Revise in the report, the pure part: the report's paragraphs as the editor lists them (flagged
 * first), and the comparison of two versions. A paragraph is a line of the checked text (the
 * server's paragraph index), as the marked full text shows it.
 */

export interface RevisableParagraph {
  /** Line number in the report's text: the server's paragraph index. */
  index: number;
  start: number;
  end: number;
  text: string;
  heading: boolean;
  section: number;
  /** Characters under a mark in the signed report (whitespace not counted), and the share of its characters. */
  copiedChars: number;
  rate: number;
  /** Numbers of the sources its marks point to. */
  sourceNos: number[];
}

const contentChars = (s: string) => s.replace(/\s/g, '').length;

function sectionOf(sections: readonly Pick<ReportSection, 'start'>[], offset: number): number {
  let found = 0;
  for (let i = 0; i < sections.length; i++) if (sections[i]!.start <= offset) found = i;
  return found;
}

/** Every non-empty line of the report's text with its signed-report marks. */
export function revisableParagraphs(report: Pick<ReportModel, 'text' | 'matches' | 'sections'>) {
  const out: RevisableParagraph[] = [];
  const lines = report.text.split('\n');
  const matches = [...report.matches].sort((a, b) => a.start - b.start);
  let at = 0;
  lines.forEach((text, index) => {
    const start = at;
    const end = at + text.length;
    at = end + 1;
    if (text.trim() === '') return;
    const section = sectionOf(report.sections, start);
    const heading = report.sections[section]?.title.trim() === text.trim();
    const covered = new Array<boolean>(text.length).fill(false);
    const sourceNos = new Set<number>();
    for (const m of matches) {
      if (m.end <= start || m.start >= end) continue;
      sourceNos.add(m.sourceNo);
      for (let i = Math.max(m.start, start); i < Math.min(m.end, end); i++) covered[i - start] = true;
    }
    let copied = 0;
    for (let i = 0; i < text.length; i++) if (covered[i] && !/\s/.test(text[i]!)) copied++;
    const chars = contentChars(text);
    out.push({
      index,
      start,
      end,
      text,
      heading,
      section,
      copiedChars: copied,
      rate: chars === 0 ? 0 : copied / chars,
      sourceNos: [...sourceNos],
    });
  });
  return out;
}

/** Flagged paragraphs first (most copied characters first), then the others in reading order. */
export function flaggedFirst(paragraphs: readonly RevisableParagraph[]) {
  const flagged = paragraphs.filter((p) => !p.heading && p.copiedChars > 0);
  flagged.sort((a, b) => b.copiedChars - a.copiedChars || a.index - b.index);
  const others = paragraphs.filter((p) => !p.heading && p.copiedChars === 0);
  return { flagged, others };
}

/** The signed report's figures in the live figures' shape (the 原稿 column and version). */
export function signedFigures(report: Pick<ReportModel, 'figures' | 'sections' | 'aigc'>): LiveFigures {
  return liveFiguresOfReport(report, report.aigc?.status === 'done' ? report.aigc.figures : null);
}

export interface VersionLike {
  edits: readonly { index: number; text: string }[];
  figures: LiveFigures;
}

/** Two versions compared: which paragraphs differ (with both texts) and each chapter's rate in both. */
export function compareVersions(lines: readonly string[], a: VersionLike, b: VersionLike) {
  const textsA = new Map(a.edits.map((e) => [e.index, e.text]));
  const textsB = new Map(b.edits.map((e) => [e.index, e.text]));
  const changed: { index: number; before: string; after: string }[] = [];
  for (const index of [...new Set([...textsA.keys(), ...textsB.keys()])].sort((x, y) => x - y)) {
    const before = textsA.get(index) ?? lines[index] ?? '';
    const after = textsB.get(index) ?? lines[index] ?? '';
    if (before !== after) changed.push({ index, before, after });
  }
  const byTitle = new Map(b.figures.sections.map((s) => [s.title, s]));
  const chapters = a.figures.sections.map((s) => ({
    title: s.title,
    before: s.ratio,
    after: byTitle.get(s.title)?.ratio ?? null,
  }));
  return { changed, chapters };
}
