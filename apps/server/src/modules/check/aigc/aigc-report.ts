/**
 * AIGC detection as a kind of check: which goods are AIGC checks, which free entitlement they use,
 * and the report model built from the detector's result (packages/aigc). Pure: runs in the check
 * worker thread (check-worker.ts) beside the PDF rendering.
 */
import { detectAigc, REASON_LABELS, VERDICT_TEXTS, verdictOf } from '@kyfw/aigc';
import type { AigcReportModel, ReportHeader } from '@kyfw/contracts';
import type { CheckKind, EntitlementKind } from '@kyfw/db';
import { safeFileStem } from '../report/render.ts';
import { AIGC_TEXTS } from './aigc.texts.ts';

/** Goods whose id starts with this are AIGC checks (migration 0018 seeds aigc_detection_standard). */
export const AIGC_GOODS_PREFIX = 'aigc_detection';

export function checkKindOf(goods: { id: string }): CheckKind {
  return goods.id.startsWith(AIGC_GOODS_PREFIX) ? 'aigc' : 'similarity';
}

/** The free use earned by binding that a check of this kind consumes. */
export function entitlementOfKind(kind: CheckKind): EntitlementKind {
  return kind === 'aigc' ? 'free_aigc_detection' : 'free_check';
}

/** What the report's header shows, known before detection. */
export type AigcReportHeader = ReportHeader;

/** Code point offset -> UTF-16 offset, for every code point boundary of `text`. */
function codeUnitOffsets(text: string): number[] {
  const out: number[] = [0];
  let unit = 0;
  for (const ch of text) {
    unit += ch.length;
    out.push(unit);
  }
  return out;
}

export function buildAigcReportModel(input: {
  header: AigcReportHeader;
  text: string;
  totalChars: number;
  warnings: string[];
}): AigcReportModel {
  const result = detectAigc(input.text);
  const units = codeUnitOffsets(input.text);
  const flagged = result.paragraphs.filter((p) => p.reliable);
  const flaggedChars = flagged.reduce((a, p) => a + p.chars, 0);
  const verdict = verdictOf(result);
  return {
    version: 1,
    kind: 'aigc',
    ...input.header,
    modelVersion: result.modelVersion,
    figures: {
      score: result.score,
      reliable: result.reliable,
      threshold: result.threshold,
      totalChars: input.totalChars,
      scoredChars: result.chars,
      flaggedChars,
      flaggedShare: result.chars === 0 ? 0 : flaggedChars / result.chars,
      paragraphCount: result.paragraphs.length,
      flaggedCount: flagged.length,
    },
    verdict,
    reasons: result.reasons.map((r) => REASON_LABELS[r.code]),
    paragraphs: result.paragraphs.map((p) => ({
      start: units[p.start]!,
      end: units[p.end]!,
      score: p.score,
      flagged: p.reliable,
      reasons: p.reasons.map((r) => r.label),
    })),
    text: input.text,
    notes: [VERDICT_TEXTS.disclaimer, ...input.warnings],
  };
}

/** The download name of an AIGC report's PDF. */
export function aigcReportFileName(check: { title: string }): string {
  return AIGC_TEXTS.fileName(safeFileStem(check.title));
}

/** The signed summary of an AIGC report says whether its index is in the reliable range. */
export function aigcReliableOf(summary: unknown): boolean {
  return (summary as { aigcReliable?: unknown } | null)?.aigcReliable === true;
}
