/**
 * Wire types of the AIGC detection report: what /freeCheck/report returns for a check of kind
 * 'aigc' (docs/api/check.md). Built once when the detection finishes
 * (apps/server/src/modules/check/aigc/aigc-report.ts) and stored as JSON; the web report and the
 * PDF are drawn from it. Offsets are UTF-16 code unit offsets into `text`, end exclusive.
 * Every index is a reference value (参考值) of a statistical model, never proof.
 */
import type { ReportModel } from './check-report.ts';

/** The header every report shows (number, code, paper, time), as the similarity report has it. */
export type ReportHeader = Pick<
  ReportModel,
  | 'orderId'
  | 'orderNo'
  | 'reportNo'
  | 'verificationCode'
  | 'verifyUrl'
  | 'title'
  | 'author'
  | 'goodsName'
  | 'fileName'
  | 'checkedAt'
>;

export interface AigcReportModel extends ReportHeader {
  version: 1;
  kind: 'aigc';
  /** The detector's model version, e.g. aigc-1. */
  modelVersion: string;
  figures: AigcFigures;
  /** 疑似含有AI生成内容 | 未见明显AI生成特征 | 文字过短，无法给出可靠判断 */
  verdict: string;
  /** Why flagged paragraphs read as generated, most frequent first (Chinese labels). */
  reasons: string[];
  paragraphs: AigcParagraph[];
  /** The detected text (as extracted from the upload). */
  text: string;
  /** The disclaimer and extraction warnings. */
  notes: string[];
}

export interface AigcFigures {
  /** Document AIGC index 0–100, character-weighted over the paragraphs. */
  score: number;
  /** The index is at or above the threshold and the text long enough: shown as a figure. */
  reliable: boolean;
  /** The index at which a paragraph or document is flagged (50). */
  threshold: number;
  /** 总字数 (whitespace not counted), as the upload counted it. */
  totalChars: number;
  /** Content characters of the scored paragraphs. */
  scoredChars: number;
  /** Content characters of the flagged paragraphs. */
  flaggedChars: number;
  /** flaggedChars / scoredChars (0–1). */
  flaggedShare: number;
  paragraphCount: number;
  flaggedCount: number;
}

export interface AigcParagraph {
  start: number;
  end: number;
  /** AIGC index 0–100 (reference value). */
  score: number;
  /** At or above the threshold with enough text. */
  flagged: boolean;
  /** Chinese reasons, only for flagged paragraphs. */
  reasons: string[];
}

/**
 * AIGC detection ordered together with a similarity check (decision 0020): its own section of the
 * similarity report (ReportModel.aigc), over the same `text`. `failed`: the detection could not be
 * done; its part of the order was refunded (or its free use given back) and `message` says so.
 */
export type AigcSection =
  | {
      status: 'done';
      /** The AIGC goods' name at upload (AIGC检测). */
      goodsName: string;
      modelVersion: string;
      figures: AigcFigures;
      verdict: string;
      reasons: string[];
      paragraphs: AigcParagraph[];
      /** The disclaimer (every figure a reference value). */
      notes: string[];
    }
  | { status: 'failed'; goodsName: string; message: string };
