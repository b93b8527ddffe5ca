import { LIBRARY_COLLECTION_NAMES, type MatchKind, type ReportModel } from '@kyfw/contracts';
import { formatPercent, KIND_LABELS } from './report-model.ts';

/**
 * What the report's tables say — the figures (检测结果), the chapter table and the source list —
 * in one place; the PDF (pdf.ts) and the standalone HTML (html.ts) only draw these rows.
 */

export interface FigureCell {
  label: string;
  value: string;
  /** The kind whose colour the value takes (总文字复制比 in the copied red). */
  tone?: MatchKind;
}

/** 检测结果: nine figures, three to a row. */
export function figureCells(f: ReportModel['figures']): FigureCell[] {
  const n = (value: number) => value.toLocaleString('zh-CN');
  return [
    { label: '总文字复制比', value: formatPercent(f.ratio), tone: 'verbatim' },
    { label: '去除引用文献复制比', value: formatPercent(f.ratioExcludingQuotes) },
    { label: '单篇最大文字复制比', value: formatPercent(f.maxSingleSourceRatio) },
    { label: '重复字数', value: n(f.copiedChars) },
    { label: '总字数', value: n(f.totalChars) },
    { label: '相似来源数', value: String(f.sourceCount) },
    { label: '文字复制字数', value: n(f.verbatimChars), tone: 'verbatim' },
    { label: '疑似改写字数', value: n(f.paraphraseChars), tone: 'paraphrase' },
    { label: '引用字数', value: n(f.quotedChars), tone: 'quoted' },
  ];
}

/** 各章节检测结果: the header, then per chapter its cells and the ratio its bar shows. */
export const SECTION_COLUMNS = ['序号', '章节', '总字数', '重复字数', '文字复制比'] as const;

/**
 * The text before the first chapter (title page, author) is listed as 封面与题名, unnumbered: the
 * paper's title is no chapter.
 */
export function sectionRows(model: ReportModel): { cells: string[]; ratio: number }[] {
  let chapter = 0;
  return model.sections.map((s) => ({
    cells: [
      s.kind === 'front' ? '—' : String(++chapter),
      s.kind === 'front' ? '封面与题名（非章节）' : s.title,
      s.chars.toLocaleString('zh-CN'),
      s.copiedChars.toLocaleString('zh-CN'),
      formatPercent(s.ratio),
    ],
    ratio: s.ratio,
  }));
}

/** 相似文献列表: the header, then per source its cells (the second: title, newline, the details). */
export const SOURCE_COLUMNS = [
  '序号',
  '文献（作者；来源；年份；学科；所在库）',
  '重复字数',
  '文字复制比',
  '占重复比例',
] as const;

export function sourceRows(model: ReportModel): string[][] {
  return model.sources.map((s) => [
    String(s.no),
    describeSource(s),
    s.copiedChars.toLocaleString('zh-CN'),
    formatPercent(s.ratio),
    formatPercent(s.share),
  ]);
}

/**
 * The source's title (题名缺失 when the record has none), then (on a second line) what the record
 * has of: up to three authors; where published; the year; the discipline; the library collection.
 */
export function describeSource(s: ReportModel['sources'][number]): string {
  const details = sourceDetails(s);
  return details ? `${s.title}\n${details}` : s.title;
}

/** The second line of `describeSource`: authors；source；year；discipline；collection, those present. */
export function sourceDetails(s: ReportModel['sources'][number]): string {
  return [
    s.authors.slice(0, 3).join('，'),
    s.source ?? '',
    s.year ? String(s.year) : '',
    s.discipline ?? '',
    s.collection ? LIBRARY_COLLECTION_NAMES[s.collection] : '',
  ]
    .filter(Boolean)
    .join('；');
}

/** Longest passage 全文对照 prints on either side; longer ones are cut with … (the HTML shows all). */
export const COMPARISON_MAX_CHARS = 800;

/** One row of 全文对照: a copied passage of the paper beside the source passage it matches. */
export interface ComparisonRow {
  /** 1-based, in the order of the paper. */
  no: number;
  /** e.g. 文字复制 · 126 字 · 第1章 绪论 */
  caption: string;
  kind: MatchKind;
  /** The passage of the checked paper. */
  original: string;
  /** [n] title, then the source's details. */
  sourceTitle: string;
  sourceDetails: string;
  /** The similar passage of the source (empty when the source text is no longer at hand). */
  sourceText: string;
}

/**
 * 全文对照 (as students know it from CNKI): every marked passage in the order of the paper, beside
 * the source passage it matches, with the source's metadata.
 */
export function comparisonRows(model: ReportModel): ComparisonRow[] {
  const matches = [...model.matches].sort((a, b) => a.start - b.start || a.index - b.index);
  return matches.map((m, i) => {
    const source = model.sources.find((s) => s.no === m.sourceNo);
    const section = model.sections[m.section];
    return {
      no: i + 1,
      caption: [KIND_LABELS[m.kind], `${m.chars.toLocaleString('zh-CN')} 字`, section?.title ?? '']
        .filter(Boolean)
        .join(' · '),
      kind: m.kind,
      original: model.text.slice(m.start, m.end),
      sourceTitle: source ? `[${source.no}] ${source.title}` : '来源已不可用',
      sourceDetails: source ? sourceDetails(source) : '',
      sourceText: m.sourcePassage.text,
    };
  });
}

/** `text` cut to `max` characters with … (for the PDF). */
export function clip(text: string, max = COMPARISON_MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
