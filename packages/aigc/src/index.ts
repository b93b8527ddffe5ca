/**
 * @kyfw/aigc — the AIGC detector. Pure: no I/O; the shipped model is a JSON module.
 *
 * - `detectAigc(text)`: paragraph and document AIGC indices (0–100, reference values), reasons
 * - `detectText(model, text)`: the same with another model (training, tests)
 */
import { detectText } from './core/detect.ts';
import type { AigcModel } from './core/model.ts';
import shipped from './model/aigc-model.json' with { type: 'json' };

export {
  DETECTOR,
  type DetectionResult,
  DOCUMENT_MIN_CHARS,
  detectText,
  FRAME_INDEX,
  type ParagraphResult,
  type Reason,
  THRESHOLD_INDEX,
  toUnits,
  verdictOf,
} from './core/detect.ts';
export type { ReasonCode } from './core/features.ts';
export type { AigcModel } from './core/model.ts';
export { REASON_LABELS, VERDICT_TEXTS } from './core/reasons.ts';

export const shippedModel: AigcModel = shipped as AigcModel;

/** Detect with the shipped model. */
export function detectAigc(text: string) {
  return detectText(shippedModel, text);
}
