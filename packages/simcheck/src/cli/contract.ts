/**
 * The check command's JSON, the contract benchmarks and operators rely on: the figures, every match
 * with its offsets in the input and in the source (code points, end exclusive) and its kind, and the
 * sections with their rates.
 */
import type { Report } from '../core/types.ts';

export function toCliReport(report: Report) {
  return {
    chars: report.chars,
    copiedChars: report.copiedChars,
    ratio: report.ratio,
    matches: report.matches.map((m) => ({
      start: m.start,
      end: m.end,
      sourceId: m.sourceId,
      sourceStart: m.sourceStart,
      sourceEnd: m.sourceEnd,
      kind: m.kind,
    })),
    sections: report.sections.map((s) => ({ title: s.title, start: s.start, end: s.end, ratio: s.ratio })),
  };
}
