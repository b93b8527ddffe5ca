import type { LiveFigures } from './api/check-revise.ts';
import type { ReportModel } from './check-report.ts';

/**
 * A report model's figures in the shape of revise in the report's live figures: the server's live
 * re-check (from the model it built for the revision) and the web's 正式报告 column (from the signed
 * report) use this one mapping. `aigc`: the detector's index and range; null when there is none.
 */
export function liveFiguresOfReport(
  model: Pick<ReportModel, 'figures' | 'sections'>,
  aigc: { score: number; reliable: boolean } | null,
): LiveFigures {
  const f = model.figures;
  return {
    ratio: f.ratio,
    ratioExcludingQuotes: f.ratioExcludingQuotes,
    maxSingleSourceRatio: f.maxSingleSourceRatio,
    maxSingleSourceTitle: f.maxSingleSourceTitle,
    copiedChars: f.copiedChars,
    totalChars: f.totalChars,
    sourceCount: f.sourceCount,
    aigcScore: aigc ? aigc.score : Number.NaN,
    aigcReliable: aigc ? aigc.reliable : false,
    sections: model.sections.map((s) => ({
      index: s.index,
      title: s.title,
      chars: s.chars,
      copiedChars: s.copiedChars,
      ratio: s.ratio,
      ratioExcludingQuotes: s.ratioExcludingQuotes,
    })),
  };
}
