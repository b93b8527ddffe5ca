import {
  type MatchKind,
  type ReportMatch,
  type ReportModel,
  type ReportSection,
  type ReportSource,
  UNTITLED_SOURCE,
} from '@kyfw/contracts';
import type { Report, StoredDocument } from '@kyfw/simcheck';
import type { CatalogEntry } from '../library/catalog.ts';

/**
 * Builds the report model (its wire types are in @kyfw/contracts, check-report.ts) the web, the
 * PDF, the HTML report and the verification page are drawn from. Built once when a check finishes
 * and stored as JSON; /freeCheck/report returns it as is.
 *
 * The engine reports in product units (`units: 'product'`): 字数 without whitespace and UTF-16
 * offsets, so the browser slices `text` with them directly.
 */

export const REPORT_DISCLAIMER =
  '本报告为程序自动比对的结果，仅供参考，不作为学术不端的最终认定依据；最终结论以学校或期刊的审查为准。';

const CONTEXT_CHARS = 40;

/** Code point offset -> UTF-16 offset, for one text. */
export function createUtf16Mapper(text: string): (cp: number) => number {
  let hasPairs = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      hasPairs = true;
      break;
    }
  }
  if (!hasPairs) return (cp) => cp;
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    offsets.push(i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  offsets.push(text.length);
  return (cp) => offsets[Math.max(0, Math.min(cp, offsets.length - 1))]!;
}

/**
 * What a source shows (issue 12): what the record has — title, authors, where it was published,
 * year, discipline, collection — and 题名缺失 where it has no title (never its first characters, nor
 * its id). A `source` that is only the import file's name (older imports wrote it when a record
 * named none; their ids start with it) is no publication and is left out.
 */
export function describeLibrarySource(
  entry: CatalogEntry | undefined,
  doc: StoredDocument | undefined,
  id: string,
): Pick<
  ReportSource,
  'title' | 'titleMissing' | 'authors' | 'year' | 'source' | 'discipline' | 'collection'
> {
  const title = (entry?.title ?? doc?.title)?.trim();
  let source = entry?.source ?? null;
  if (entry?.origin === 'upload') source = '用户上传论文（已授权入库）';
  else if (source && id.startsWith(`${source}:`)) source = null;
  return {
    title: title || UNTITLED_SOURCE,
    titleMissing: !title,
    authors: entry?.authors ?? [],
    year: entry?.year ?? null,
    source,
    discipline: entry?.discipline ?? null,
    collection: entry?.collection ?? null,
  };
}

export interface BuildReportModelInput {
  orderId: string;
  orderNo: string;
  reportNo: string;
  verificationCode: string;
  verifyUrl: string;
  title: string;
  author: string;
  goodsName: string;
  fileName: string;
  checkedAt: Date;
  text: string;
  report: Report;
  /** Texts of the candidate sources (from the check) and their catalogue entries. */
  sources: ReadonlyMap<string, StoredDocument>;
  catalog: ReadonlyMap<string, CatalogEntry>;
  warnings: readonly string[];
}

export function buildReportModel(input: BuildReportModelInput): ReportModel {
  const { report, text } = input;

  const sources: ReportSource[] = report.sources.map((s, i) => {
    const entry = input.catalog.get(s.sourceId);
    const doc = input.sources.get(s.sourceId);
    return {
      no: i + 1,
      id: s.sourceId,
      ...describeLibrarySource(entry, doc, s.sourceId),
      copiedChars: s.copiedChars,
      ratio: s.ratio,
      share: s.share,
      matchCount: s.matches,
    };
  });
  const sourceNo = new Map(sources.map((s) => [s.id, s.no]));

  const matchCounts = new Array<number>(report.sections.length).fill(0);
  let verbatimChars = 0;
  let paraphraseChars = 0;
  const matches: ReportMatch[] = report.matches.map((m, i) => {
    if (m.kind === 'verbatim') verbatimChars += m.chars;
    else if (m.kind === 'paraphrase') paraphraseChars += m.chars;
    if (matchCounts[m.section] !== undefined) matchCounts[m.section]!++;
    const doc = input.sources.get(m.sourceId);
    let passage = { before: '', text: '', after: '' };
    if (doc) {
      const a = m.sourceStart;
      const b = m.sourceEnd;
      passage = {
        before: doc.text.slice(Math.max(0, a - CONTEXT_CHARS), a),
        text: doc.text.slice(a, b),
        after: doc.text.slice(b, b + CONTEXT_CHARS),
      };
    }
    return {
      index: i,
      start: m.start,
      end: m.end,
      kind: m.kind,
      chars: m.chars,
      section: m.section,
      sourceNo: sourceNo.get(m.sourceId) ?? 0,
      sourcePassage: passage,
    };
  });

  const sections: ReportSection[] = report.sections.map((s, i) => ({
    index: i,
    title: s.title,
    kind: s.kind,
    start: s.start,
    end: s.end,
    chars: s.chars,
    copiedChars: s.copiedChars,
    quotedChars: s.quotedChars,
    ratio: s.ratio,
    ratioExcludingQuotes: s.ratioExcludingQuotes,
    matchCount: matchCounts[i] ?? 0,
  }));

  const maxSource = report.maxSingleSourceId
    ? sources.find((s) => s.id === report.maxSingleSourceId)
    : undefined;
  return {
    version: 1,
    orderId: input.orderId,
    orderNo: input.orderNo,
    reportNo: input.reportNo,
    verificationCode: input.verificationCode,
    verifyUrl: input.verifyUrl,
    title: input.title,
    author: input.author,
    goodsName: input.goodsName,
    fileName: input.fileName,
    checkedAt: input.checkedAt.toISOString(),
    figures: {
      ratio: report.ratio,
      ratioExcludingQuotes: report.ratioExcludingQuotes,
      maxSingleSourceRatio: report.maxSingleSourceRatio,
      maxSingleSourceTitle: maxSource?.title ?? null,
      copiedChars: report.copiedChars,
      totalChars: report.chars,
      verbatimChars,
      paraphraseChars,
      quotedChars: report.quotedChars,
      referenceChars: report.referenceChars,
      sourceCount: sources.length,
    },
    sections,
    sources,
    matches,
    text,
    notes: [REPORT_DISCLAIMER, ...input.warnings],
  };
}

/** 0.12345 -> '12.3%' (one decimal, as Chinese checkers print it). */
export function formatPercent(ratio: number): string {
  return `${(Math.round(ratio * 1000) / 10).toFixed(1)}%`;
}

/** 2025-05-28T01:52:01Z -> '2025-05-28 09:52:01' (China time). */
export function formatChinaTime(iso: string): string {
  const d = new Date(new Date(iso).getTime() + 8 * 3600_000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export const KIND_LABELS: Readonly<Record<MatchKind, string>> = {
  verbatim: '文字复制',
  paraphrase: '疑似改写',
  quoted: '引用（已标注）',
};
