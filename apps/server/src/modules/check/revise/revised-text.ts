import type { HeadingHint } from '@kyfw/simcheck';

/**
 * A revision of a checked paper as text: the checked text's lines (a paragraph each, as the
 * extraction wrote them and the web report shows them) with the edited ones replaced. Pure.
 *
 * Headings keep their places: a heading's offsets move with the text before it; a heading on an
 * edited line is left out (the structure analysis still finds a numbered heading by its form).
 */

/** Paragraph index -> its text in the revision. */
export type Edits = ReadonlyMap<number, string>;

export interface RevisedText {
  text: string;
  headings: HeadingHint[];
  /** UTF-16 start and end of each paragraph (line) in `text`. */
  ranges: { start: number; end: number }[];
}

/** One paragraph stays one paragraph: line breaks in an edit become nothing (CRLF, LF, CR, U+2028/9). */
export function cleanParagraph(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, '').trim();
}

function lineRanges(lines: readonly string[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let at = 0;
  for (const line of lines) {
    out.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  return out;
}

/** The line holding UTF-16 offset `offset` (binary search over the ranges). */
function lineAt(ranges: readonly { start: number; end: number }[], offset: number): number {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranges[mid]!.start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function applyEdits(
  original: { text: string; headings: readonly HeadingHint[] },
  edits: Edits,
): RevisedText {
  const lines = original.text.split('\n');
  const before = lineRanges(lines);
  const revisedLines = lines.map((line, i) => edits.get(i) ?? line);
  const ranges = lineRanges(revisedLines);
  const headings: HeadingHint[] = [];
  for (const h of original.headings) {
    const first = lineAt(before, h.start);
    const last = lineAt(before, Math.max(h.start, h.end - 1));
    let touched = false;
    for (let i = first; i <= last; i++) if (edits.has(i)) touched = true;
    if (touched) continue;
    headings.push({
      ...h,
      start: ranges[first]!.start + (h.start - before[first]!.start),
      end: ranges[last]!.start + (h.end - before[last]!.start),
    });
  }
  return { text: revisedLines.join('\n'), headings, ranges };
}

/** The edits that change something: an edit equal to the checked line is no edit. */
export function normaliseEdits(originalText: string, edits: Edits): Map<number, string> {
  const lines = originalText.split('\n');
  const out = new Map<number, string>();
  for (const [i, text] of [...edits].sort((a, b) => a[0] - b[0])) {
    if (i >= 0 && i < lines.length && text !== lines[i]) out.set(i, text);
  }
  return out;
}
