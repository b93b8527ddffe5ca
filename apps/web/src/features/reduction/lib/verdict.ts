import { reductionTexts as T } from '../texts';
import type { ReductionResult } from '../types';

/** Smallest change reported as a drop or a rise: 0.5 percentage points of the rate, 0.5 of the index. */
const RATE_STEP = 0.005;
const INDEX_STEP = 0.5;
/** A drop smaller than this (2 percentage points of the rate, 5 of the index) is called slight, not a success. */
const RATE_CLEAR = 0.02;
const INDEX_CLEAR = 5;

export interface MeasureVerdict {
  tone: 'success' | 'warning';
  text: string;
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const idx = (v: number) => v.toFixed(1);

/**
 * What the re-measurement found for the figure this service aims at (降重: the similarity rate,
 * 降AIGC: the AIGC index), from the server's before/after figures only: a drop is claimed only when
 * the figure after is clearly lower; a small drop is called slight, no drop is said as such (or a rise).
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
  const clear = aigc ? INDEX_CLEAR : RATE_CLEAR;
  if (before - after >= clear) return { tone: 'success', text: T.verdict.dropped(figures) };
  if (before - after >= step) return { tone: 'warning', text: T.verdict.slight(figures) };
  if (after - before >= step) return { tone: 'warning', text: T.verdict.rose(figures) };
  return { tone: 'warning', text: T.verdict.unchanged(figures) };
}
