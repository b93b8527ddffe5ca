/**
 * Detection over a document: the text is cut into scoring units (paragraphs; consecutive short
 * paragraphs merged until a unit has enough text), each unit gets an AIGC index, and the document's
 * index is their character-weighted mean. Headings, reference entries and near-empty lines are not
 * scored. Offsets are code points into the given text, end exclusive.
 */
import type { ReasonCode } from './features.ts';
import { passageStats } from './features.ts';
import { isTemplateFrame } from './frames.ts';
import { type AigcModel, scorePassage } from './model.ts';
import { REASON_LABELS, VERDICT_TEXTS } from './reasons.ts';
import { countContentChars, type Line, splitLines } from './text.ts';

/** Index at or above which a figure is in the reliable range (the ≤1% false-positive threshold). */
export const THRESHOLD_INDEX = 50;
/** The detector's fixed parameters in one value (the training script reads the same). */
export const DETECTOR = Object.freeze({ thresholdIndex: THRESHOLD_INDEX });
/** A unit is closed once it has this many content characters. */
export const UNIT_TARGET_CHARS = 80;
/** A document needs this many content characters in scored units for a reliable document figure. */
export const DOCUMENT_MIN_CHARS = 100;
/**
 * The least index of a template opening or closing (frames.ts): the rule is a reason a reader can
 * check, so such a paragraph is flagged whatever the model's figure, above the threshold.
 */
export const FRAME_INDEX = 70;
/** Most reasons given for one paragraph. */
const MAX_REASONS = 3;
/** A reason is given when its features add at least this much to the margin. */
const MIN_REASON_CONTRIBUTION = 0.25;

export interface Reason {
  code: ReasonCode;
  label: string;
}

export interface ParagraphResult {
  start: number;
  end: number;
  /** Content characters (Han, letters, digits) of the unit. */
  chars: number;
  /** AIGC index 0–100 (reference value). */
  score: number;
  /** True when the unit is long enough and its index is at or above the threshold. */
  reliable: boolean;
  /** Why the unit reads as generated; only for reliable units, strongest first. */
  reasons: Reason[];
}

export interface DetectionResult {
  modelVersion: string;
  /** Character-weighted mean of the paragraph indices, 0–100 (reference value). */
  score: number;
  /** True when the document has enough scored text and its index is at or above the threshold. */
  reliable: boolean;
  /** Content characters scored. */
  chars: number;
  /** Share of scored characters in reliable (flagged) paragraphs, 0–1. */
  flaggedShare: number;
  threshold: number;
  paragraphs: ParagraphResult[];
  /** Reasons over the flagged paragraphs, most frequent first. */
  reasons: Reason[];
}

const REFERENCE_ENTRY =
  /^\s*(?:\[\d+\]|［\d+］|\d+[.．]\s*[A-Z\u4e00-\u9fff].*\[[A-Z]\])|\[[JMDCRSPNZ](?:\/OL)?\]/u;
const SENTENCE_MARK = /[。！？!?；;，,]/u;

/** Whether a line is prose to be scored (not a heading, a reference entry or a near-empty line). */
export function isProse(line: Line): boolean {
  const chars = countContentChars(line.text);
  if (chars < 8) return false;
  if (REFERENCE_ENTRY.test(line.text)) return false;
  if (chars < 30 && !SENTENCE_MARK.test(line.text)) return false;
  return true;
}

/** Scoring units: runs of prose lines, each closed when it reaches UNIT_TARGET_CHARS or at a non-prose line. */
export function toUnits(text: string): Line[] {
  const units: Line[] = [];
  const chars = [...text];
  let current: { start: number; end: number; chars: number } | null = null;
  const close = () => {
    if (current)
      units.push({
        start: current.start,
        end: current.end,
        text: chars.slice(current.start, current.end).join(''),
      });
    current = null;
  };
  for (const line of splitLines(text)) {
    if (!isProse(line)) {
      if (line.text.trim() !== '') close();
      continue;
    }
    const n = countContentChars(line.text);
    if (current) {
      current.end = line.end;
      current.chars += n;
    } else current = { start: line.start, end: line.end, chars: n };
    if (current.chars >= UNIT_TARGET_CHARS) close();
  }
  close();
  return units;
}

function reasonsOf(contributions: Map<ReasonCode, number>): Reason[] {
  return [...contributions]
    .filter(([, c]) => c >= MIN_REASON_CONTRIBUTION)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_REASONS)
    .map(([code]) => ({ code, label: REASON_LABELS[code] }));
}

export function detectText(model: AigcModel, text: string): DetectionResult {
  const paragraphs: ParagraphResult[] = toUnits(text).map((unit) => {
    const stats = passageStats(unit.text);
    const s = scorePassage(model, stats);
    const framed = isTemplateFrame(unit.text);
    const score = framed ? Math.max(s.index, FRAME_INDEX) : s.index;
    const reliable = stats.contentChars >= model.minReliableChars && score >= THRESHOLD_INDEX;
    const reasons = reliable ? reasonsOf(s.contributions) : [];
    if (reliable && framed) reasons.unshift({ code: 'template_frame', label: REASON_LABELS.template_frame });
    return {
      start: unit.start,
      end: unit.end,
      chars: stats.contentChars,
      score,
      reliable,
      reasons: reasons.slice(0, MAX_REASONS),
    };
  });
  let chars = 0;
  let weighted = 0;
  let flagged = 0;
  const reasonCounts = new Map<ReasonCode, number>();
  for (const p of paragraphs) {
    chars += p.chars;
    weighted += p.chars * p.score;
    if (p.reliable) {
      flagged += p.chars;
      for (const r of p.reasons) reasonCounts.set(r.code, (reasonCounts.get(r.code) ?? 0) + p.chars);
    }
  }
  const score = chars === 0 ? 0 : Math.round((10 * weighted) / chars) / 10;
  return {
    modelVersion: model.version,
    score,
    reliable: chars >= DOCUMENT_MIN_CHARS && score >= THRESHOLD_INDEX,
    chars,
    flaggedShare: chars === 0 ? 0 : flagged / chars,
    threshold: THRESHOLD_INDEX,
    paragraphs,
    reasons: [...reasonCounts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_REASONS)
      .map(([code]) => ({ code, label: REASON_LABELS[code] })),
  };
}

/**
 * The verdict of a result, agreeing with its shading: 疑似含有AI生成内容 in the reliable range;
 * 部分段落疑似含有AI生成内容 when the document's index is lower but paragraphs are flagged (the
 * report then shows the index as a reference value too); too short; else 未见明显AI生成特征.
 */
export function verdictOf(result: Pick<DetectionResult, 'reliable' | 'chars' | 'paragraphs'>): string {
  if (result.reliable) return VERDICT_TEXTS.likely;
  if (result.paragraphs.some((p) => p.reliable)) return VERDICT_TEXTS.partial;
  if (result.chars < DOCUMENT_MIN_CHARS) return VERDICT_TEXTS.tooShort;
  return VERDICT_TEXTS.none;
}
