import { reductionTexts as T } from '../texts';
import type { ReductionResult } from '../types';

/** Smallest change reported as a drop or a rise: 0.5 percentage points of the rate, 0.5 of the index. */
const RATE_STEP = 0.005;
const INDEX_STEP = 0.5;

export interface MeasureVerdict {
  tone: 'success' | 'warning';
  text: string;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const idx = (v: number) => v.toFixed(1);

/**
 * What the re-measurement found for the figure this service aims at (降重: the similarity rate,
 * 降AIGC: the AIGC index), from the server's before/after figures only: a drop is claimed only when
 * the figure after is lower by at least a step; otherwise the page says it did not fall (or rose).
 */
export function measureVerdict(
  r: Pick<ReductionResult, 'kind' | 'rateBefore' | 'rateAfter' | 'aigcBefore' | 'aigcAfter'>,
): MeasureVerdict | null {
  const aigc = r.kind === 'aigc_reduction';
  const before = aigc ? r.aigcBefore : r.rateBefore;
  const after = aigc ? r.aigcAfter : r.rateAfter;
  if (before === null || after === null) return null;
  const step = aigc ? INDEX_STEP : RATE_STEP;
  const show = aigc ? idx : pct;
  const name = aigc ? T.verdict.aigcName : T.verdict.rateName;
  const figures = { name, before: show(before), after: show(after) };
  if (before - after >= step) return { tone: 'success', text: T.verdict.dropped(figures) };
  if (after - before >= step) return { tone: 'warning', text: T.verdict.rose(figures) };
  return { tone: 'warning', text: T.verdict.unchanged(figures) };
}
