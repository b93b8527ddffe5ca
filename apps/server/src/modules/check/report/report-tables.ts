import type { MatchKind, ReportModel } from '@kyfw/contracts';
import { formatPercent } from './report-model.ts';

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

export function sectionRows(model: ReportModel): { cells: string[]; ratio: number }[] {
  return model.sections.map((s, i) => ({
    cells: [
      String(i + 1),
      s.title,
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
  '文献（作者；来源；年份）',
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

/** The source's title, then (on a second line) up to three authors; where published; the year. */
export function describeSource(s: ReportModel['sources'][number]): string {
  const parts = [s.authors.slice(0, 3).join('，'), s.source ?? '', s.year ? String(s.year) : ''].filter(
    Boolean,
  );
  return parts.length > 0 ? `${s.title}\n${parts.join('；')}` : s.title;
}
