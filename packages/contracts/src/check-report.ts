/**
 * Wire types of the check report: what /freeCheck/report returns (docs/api/check.md describes it
 * field by field). The server builds it once when a check finishes
 * (apps/server/src/modules/check/report/report-model.ts) and stores it as JSON; the web report, the
 * PDF, the HTML report and the verification page are drawn from it. Types only: nothing here
 * reaches a bundle.
 *
 * Offsets are UTF-16 code unit offsets into `text` (JavaScript string indices), end exclusive, so
 * the browser can slice `text` directly.
 */

import type { AigcSection } from './aigc-report.ts';

/** verbatim (red, 文字复制) | paraphrase (orange, 疑似改写) | quoted (green, 引用（已标注）). */
export type MatchKind = 'verbatim' | 'paraphrase' | 'quoted';

/** /freeCheck/report: everything the report shows. */
export interface ReportModel {
  version: 1;
  orderId: string;
  orderNo: string;
  reportNo: string;
  verificationCode: string;
  /** The public verification page with number and code filled in (the QR code's target). */
  verifyUrl: string;
  title: string;
  author: string;
  goodsName: string;
  fileName: string;
  /** ISO time the check finished. */
  checkedAt: string;
  figures: ReportFigures;
  sections: ReportSection[];
  sources: ReportSource[];
  matches: ReportMatch[];
  /** The checked text (as extracted from the upload), once; marks are ranges into it. */
  text: string;
  /** Things the reader should know: the disclaimer, extraction warnings. */
  notes: string[];
  /** The AIGC detection ordered with this check (decision 0020); absent without it. */
  aigc?: AigcSection;
}

export interface ReportFigures {
  /** 总文字复制比 (0–1): copiedChars / totalChars. */
  ratio: number;
  /** 去除引用文献复制比 (0–1): (copiedChars - quotedChars) / totalChars. */
  ratioExcludingQuotes: number;
  /** 单篇最大文字复制比 (0–1) and the source it belongs to. */
  maxSingleSourceRatio: number;
  maxSingleSourceTitle: string | null;
  /** 重复字数 */
  copiedChars: number;
  /**
   * 总字数: 字数 of the text, whitespace not counted — the same number as the upload's `chars`.
   * Every count in the report is in 字数 (docs/api/check.md).
   */
  totalChars: number;
  /** Of the copied characters: verbatim (red), paraphrased (orange), quoted and cited (green). */
  verbatimChars: number;
  paraphraseChars: number;
  quotedChars: number;
  /** The reference list's characters (not checked). */
  referenceChars: number;
  /** Similar sources found. */
  sourceCount: number;
}

export interface ReportSection {
  index: number;
  title: string;
  /** front | abstract | toc | body | references | acknowledgements | appendix */
  kind: string;
  /** UTF-16 offsets into `text`, end exclusive. */
  start: number;
  end: number;
  chars: number;
  copiedChars: number;
  quotedChars: number;
  ratio: number;
  ratioExcludingQuotes: number;
  matchCount: number;
}

export interface ReportSource {
  /** 1-based number shown in the report ([1], [2] ...). */
  no: number;
  id: string;
  /** The record's title; UNTITLED_SOURCE (题名缺失) when it has none (`titleMissing`). */
  title: string;
  titleMissing?: boolean;
  authors: string[];
  year: number | null;
  /** Where it was published (journal, university…); 'upload' papers say 用户上传论文（已授权入库）. */
  source: string | null;
  /** 学科, when the record names one. */
  discipline?: string | null;
  /** The library collection it belongs to (LIBRARY_COLLECTION_NAMES). */
  collection?: 'journal' | 'thesis' | 'web' | 'user' | null;
  copiedChars: number;
  /** This source's 文字复制比 (0–1). */
  ratio: number;
  /** Share of all copied characters (0–1). */
  share: number;
  matchCount: number;
}

export interface ReportMatch {
  index: number;
  /** UTF-16 offsets into `text`, end exclusive. */
  start: number;
  end: number;
  kind: MatchKind;
  chars: number;
  /** Index into `sections`. */
  section: number;
  /** `no` of the source in `sources`. */
  sourceNo: number;
  /** The similar passage in the source, with a little context, for the side-by-side view. */
  sourcePassage: { before: string; text: string; after: string };
}
