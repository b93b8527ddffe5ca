import type { ReportMatch, ReportModel } from '@kyfw/contracts';
import PDFDocument from 'pdfkit';
import { drawAigcSection } from './aigc-pdf.ts';
import { loadFonts } from './fonts.ts';
import { formatChinaTime, KIND_LABELS, REPORT_DISCLAIMER } from './report-model.ts';
import {
  clip,
  comparisonRows,
  figureCells,
  SECTION_COLUMNS,
  SOURCE_COLUMNS,
  sectionRows,
  sourceRows,
} from './report-tables.ts';

/**
 * The two PDF reports, drawn with pdfkit in Noto Sans SC:
 * - the report (检测报告): header with report number, check time, verification code and QR code;
 *   the figures; the chapter table with bars; the source list; the full text marked red (copied),
 *   orange (paraphrased) and green (quoted and cited); 全文对照: each marked passage beside the
 *   source passage, with the source's metadata; with the AIGC detection ordered with the check,
 *   its section on pages of its own at the end (aigc-pdf.ts drawAigcSection);
 * - the marked text (全文标明引文): the header and figures, then the full text with each marked
 *   passage followed by its source number [n], and the source list for the numbers.
 * Runs in the check worker thread (check-worker.ts): an 80,000-character thesis takes seconds.
 */

export type Doc = PDFKit.PDFDocument;

/** What the header and footers of every report (similarity and AIGC) show. */
export type ReportHeaderFields = Pick<
  ReportModel,
  'title' | 'reportNo' | 'checkedAt' | 'verificationCode' | 'author' | 'goodsName' | 'fileName' | 'verifyUrl'
>;

export const COLORS = {
  text: '#262626',
  muted: '#8c8c8c',
  line: '#d9d9d9',
  brand: '#1f4e9c',
  verbatim: '#cf1322',
  paraphrase: '#d46b08',
  quoted: '#389e0d',
  barBack: '#f0f0f0',
} as const;

export const MARGIN = 50;
export const BODY_SIZE = 10.5;

export function createDoc(
  model: ReportHeaderFields,
  subject: string,
): { doc: Doc; done: Promise<Uint8Array> } {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 64, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `${model.title} — ${subject}`,
      Author: '科研服务网',
      Subject: `${subject} ${model.reportNo}`,
      Creator: 'kyfw',
    },
  });
  const fonts = loadFonts();
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  return { doc, done };
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

function bottomLimit(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** Starts a new page when fewer than `height` points are left. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

export function heading(doc: Doc, text: string): void {
  // The heading, a table's header row and its first row stay together.
  ensureSpace(doc, 110);
  doc.moveDown(0.8);
  const y = doc.y;
  doc.rect(MARGIN, y + 2, 4, 14).fill(COLORS.brand);
  doc
    .font('bold')
    .fontSize(13)
    .fillColor(COLORS.text)
    .text(text, MARGIN + 10, y, { width: contentWidth(doc) - 10 });
  doc.moveDown(0.4);
  doc.font('regular').fontSize(BODY_SIZE);
}

export function drawHeader(doc: Doc, model: ReportHeaderFields, subject: string, qrPng: Uint8Array): void {
  const width = contentWidth(doc);
  const qrSize = 84;
  const top = doc.y;
  doc.image(Buffer.from(qrPng), MARGIN + width - qrSize, top, { width: qrSize, height: qrSize });
  doc
    .font('bold')
    .fontSize(18)
    .fillColor(COLORS.brand)
    .text(subject, MARGIN, top, { width: width - qrSize - 10 });
  doc.moveDown(0.3);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  const lines: [string, string][] = [
    ['报告编号', model.reportNo],
    ['检测时间', formatChinaTime(model.checkedAt)],
    ['验证码', model.verificationCode],
    ['篇名', model.title],
    ['作者', model.author],
    ['检测类型', model.goodsName],
    ['文件名', model.fileName],
  ];
  for (const [label, value] of lines) {
    doc.font('bold').text(`${label}：`, MARGIN, doc.y, { continued: true, width: width - qrSize - 10 });
    doc.font('regular').text(value);
  }
  doc
    .fontSize(8.5)
    .fillColor(COLORS.muted)
    .text(
      `扫描二维码或访问 ${model.verifyUrl.split('?')[0]} 输入报告编号与验证码，核验本报告真伪`,
      MARGIN,
      Math.max(doc.y, top + qrSize) + 4,
      {
        width,
      },
    );
  doc.fontSize(BODY_SIZE).fillColor(COLORS.text);
  doc
    .moveTo(MARGIN, doc.y + 6)
    .lineTo(MARGIN + width, doc.y + 6)
    .lineWidth(0.5)
    .stroke(COLORS.line);
  doc.moveDown(0.8);
}

function drawFigures(doc: Doc, model: ReportModel): void {
  heading(doc, '检测结果');
  const f = model.figures;
  const cells = figureCells(f);
  const width = contentWidth(doc);
  const cols = 3;
  const cellW = width / cols;
  const cellH = 44;
  ensureSpace(doc, cellH * 3 + 40);
  const top = doc.y;
  cells.forEach(({ label, value, tone }, i) => {
    const x = MARGIN + (i % cols) * cellW;
    const y = top + Math.floor(i / cols) * cellH;
    doc
      .rect(x + 2, y + 2, cellW - 4, cellH - 4)
      .lineWidth(0.5)
      .stroke(COLORS.line);
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(COLORS.muted)
      .text(label, x + 10, y + 8, { width: cellW - 20 });
    doc
      .font('bold')
      .fontSize(14)
      .fillColor(tone ? COLORS[tone] : COLORS.text)
      .text(value, x + 10, y + 20, { width: cellW - 20 });
  });
  doc.x = MARGIN;
  doc.y = top + cellH * 3 + 6;
  doc.font('regular').fontSize(9).fillColor(COLORS.muted);
  if (f.maxSingleSourceTitle) {
    doc.text(`单篇最大文字复制比来源：${f.maxSingleSourceTitle}`, MARGIN, doc.y, { width });
  }
  if (f.referenceChars > 0) {
    doc.text(`参考文献部分（${f.referenceChars.toLocaleString('zh-CN')} 字）不参与检测。`, MARGIN, doc.y, {
      width,
    });
  }
  drawLegend(doc);
}

function drawLegend(doc: Doc): void {
  const y = doc.y + 4;
  let x = MARGIN;
  doc.fontSize(9);
  for (const [kind, color] of [
    ['verbatim', COLORS.verbatim],
    ['paraphrase', COLORS.paraphrase],
    ['quoted', COLORS.quoted],
  ] as const) {
    doc.rect(x, y + 2, 9, 9).fill(color);
    const label = KIND_LABELS[kind];
    doc.fillColor(COLORS.text).text(label, x + 13, y, { lineBreak: false });
    x += 13 + doc.widthOfString(label) + 18;
  }
  doc.x = MARGIN;
  doc.y = y + 16;
  doc.fontSize(BODY_SIZE).fillColor(COLORS.text);
}

type Column = { title: string; width: number; align?: 'left' | 'right' | 'center' };

/** A simple table: header row, then rows; `bar` draws a ratio bar in the last column. */
function drawTable(
  doc: Doc,
  columns: Column[],
  rows: { cells: string[]; bar?: number; color?: string }[],
): void {
  const width = contentWidth(doc);
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const pad = 4;
  const drawRow = (cells: string[], bold: boolean, bar?: number, color?: string) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(9);
    const heights = cells.map((c, i) => doc.heightOfString(c || ' ', { width: widths[i]! - pad * 2 }));
    const h = Math.max(16, ...heights) + pad * 2;
    ensureSpace(doc, h);
    const y = doc.y;
    let x = MARGIN;
    if (bold) doc.rect(MARGIN, y, width, h).fill('#fafafa');
    cells.forEach((c, i) => {
      const w = widths[i]!;
      if (bar !== undefined && i === cells.length - 1) {
        const barW = w - pad * 2;
        doc.rect(x + pad, y + h / 2 - 4, barW, 8).fill(COLORS.barBack);
        if (bar > 0)
          doc
            .rect(x + pad, y + h / 2 - 4, Math.max(1, barW * Math.min(1, bar)), 8)
            .fill(color ?? COLORS.verbatim);
      } else {
        doc
          .fillColor(COLORS.text)
          .text(c, x + pad, y + pad, { width: w - pad * 2, align: columns[i]!.align ?? 'left' });
      }
      x += w;
    });
    doc
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.5)
      .stroke(COLORS.line);
    doc.x = MARGIN;
    doc.y = y + h;
  };
  drawRow(
    columns.map((c) => c.title),
    true,
  );
  for (const row of rows) drawRow(row.cells, false, row.bar, row.color);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  doc.moveDown(0.5);
}

function drawSections(doc: Doc, model: ReportModel): void {
  heading(doc, '各章节检测结果');
  drawTable(
    doc,
    columns(SECTION_COLUMNS, [
      [6, 'center'],
      [38, 'left'],
      [12, 'right'],
      [12, 'right'],
      [12, 'right'],
    ]).concat({ title: '', width: 20 }),
    sectionRows(model).map((row) => ({ cells: [...row.cells, ''], bar: row.ratio })),
  );
}

/** Columns from the shared titles and their widths (relative) and alignments. */
function columns(titles: readonly string[], layout: [number, Column['align']][]): Column[] {
  return titles.map((title, i) => ({ title, width: layout[i]![0], align: layout[i]![1] }));
}

function drawSources(doc: Doc, model: ReportModel): void {
  heading(doc, '相似文献列表');
  if (model.sources.length === 0) {
    doc.fillColor(COLORS.muted).text('未发现相似文献。').fillColor(COLORS.text);
    return;
  }
  drawTable(
    doc,
    columns(SOURCE_COLUMNS, [
      [6, 'center'],
      [52, 'left'],
      [13, 'right'],
      [13, 'right'],
      [13, 'right'],
    ]),
    sourceRows(model).map((cells) => ({ cells })),
  );
}

/** The full text with the marked passages in colour; `withSourceNumbers` adds [n] after each. */
function drawMarkedText(doc: Doc, model: ReportModel, withSourceNumbers: boolean): void {
  const width = contentWidth(doc);
  const text = model.text.replace(/\t/g, '    ').replace(/\r/g, '');
  const matches: ReportMatch[] = [...model.matches].sort((a, b) => a.start - b.start);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  doc.x = MARGIN;
  const runs: { text: string; color: string }[] = [];
  let pos = 0;
  for (const m of matches) {
    if (m.start < pos) continue;
    if (m.start > pos) runs.push({ text: text.slice(pos, m.start), color: COLORS.text });
    runs.push({ text: text.slice(m.start, m.end), color: COLORS[m.kind] });
    if (withSourceNumbers && m.sourceNo > 0) runs.push({ text: `[${m.sourceNo}]`, color: COLORS.brand });
    pos = m.end;
  }
  if (pos < text.length) runs.push({ text: text.slice(pos), color: COLORS.text });
  // One paragraph at a time: pdfkit's `continued` text mis-indents lines that follow a line break
  // inside a continued run, so runs are split at '\n' and every paragraph is ended explicitly.
  const paragraphs: { text: string; color: string }[][] = [[]];
  for (const run of runs) {
    run.text.split('\n').forEach((piece, k) => {
      if (k > 0) paragraphs.push([]);
      if (piece !== '') paragraphs[paragraphs.length - 1]!.push({ text: piece, color: run.color });
    });
  }
  const options = { width, lineGap: 3 };
  for (const para of paragraphs) {
    if (para.length === 0) {
      doc.moveDown(0.3);
      continue;
    }
    para.forEach((run, i) => {
      doc.fillColor(run.color).text(run.text, { ...options, continued: i < para.length - 1 });
    });
    doc.moveDown(0.15);
  }
  doc.fillColor(COLORS.text);
}

/** 全文对照: per marked passage, the paper's text (left) beside the source's (right). */
function drawComparison(doc: Doc, model: ReportModel): void {
  heading(doc, '全文对照（左：原文内容；右：相似来源内容）');
  const rows = comparisonRows(model);
  if (rows.length === 0) {
    doc.fillColor(COLORS.muted).text('未发现相似片段。').fillColor(COLORS.text);
    return;
  }
  const width = contentWidth(doc);
  const gap = 12;
  const colW = (width - gap) / 2;
  const pad = 4;
  for (const row of rows) {
    const original = clip(row.original);
    const source = clip(row.sourceText) || '（来源原文已不可用）';
    doc.font('bold').fontSize(9);
    const titleH = doc.heightOfString(row.sourceTitle, { width: colW - pad * 2 });
    doc.font('regular').fontSize(8);
    const detailsH = row.sourceDetails ? doc.heightOfString(row.sourceDetails, { width: colW - pad * 2 }) : 0;
    doc.fontSize(9);
    const leftH = doc.heightOfString(original, { width: colW - pad * 2, lineGap: 2 });
    const rightH = doc.heightOfString(source, { width: colW - pad * 2, lineGap: 2 });
    const headH = Math.max(14, titleH + detailsH + 2);
    const h = 16 + headH + Math.max(leftH, rightH) + pad * 3;
    ensureSpace(doc, h);
    const y = doc.y;
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(COLORS[row.kind])
      .text(`片段 ${row.no}  ${row.caption}`, MARGIN, y, { width, lineBreak: false });
    const top = y + 16;
    const rightX = MARGIN + colW + gap;
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(COLORS.text)
      .text('原文内容', MARGIN + pad, top, { width: colW - pad * 2 });
    doc.text(row.sourceTitle, rightX + pad, top, { width: colW - pad * 2 });
    if (row.sourceDetails)
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(COLORS.muted)
        .text(row.sourceDetails, rightX + pad, top + titleH, { width: colW - pad * 2 });
    const bodyY = top + headH + pad;
    doc.font('regular').fontSize(9).fillColor(COLORS[row.kind]);
    doc.text(original, MARGIN + pad, bodyY, { width: colW - pad * 2, lineGap: 2 });
    doc.fillColor(COLORS.text).text(source, rightX + pad, bodyY, { width: colW - pad * 2, lineGap: 2 });
    const bottom = y + h;
    doc
      .rect(MARGIN, top - 2, colW, bottom - top)
      .lineWidth(0.5)
      .stroke(COLORS.line);
    doc
      .rect(rightX, top - 2, colW, bottom - top)
      .lineWidth(0.5)
      .stroke(COLORS.line);
    doc.x = MARGIN;
    doc.y = bottom + 8;
  }
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
}

export function drawFooters(
  doc: Doc,
  model: ReportHeaderFields,
  disclaimer: string = REPORT_DISCLAIMER,
): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const width = contentWidth(doc);
    const y = doc.page.height - 46;
    // Writing in the bottom margin must not trigger a page break.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(7.5).fillColor(COLORS.muted);
    doc.text(disclaimer, MARGIN, y, { width, align: 'center', lineBreak: true });
    doc.text(`报告编号 ${model.reportNo}   第 ${i + 1} / ${range.count} 页`, MARGIN, y + 20, {
      width,
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** The full report (检测报告). */
export function renderReportPdf(model: ReportModel, qrPng: Uint8Array): Promise<Uint8Array> {
  const subject = '论文相似性检测报告';
  const { doc, done } = createDoc(model, subject);
  drawHeader(doc, model, subject, qrPng);
  drawFigures(doc, model);
  drawSections(doc, model);
  drawSources(doc, model);
  heading(doc, '全文检测结果（红色：文字复制；橙色：疑似改写；绿色：引用）');
  drawMarkedText(doc, model, false);
  drawComparison(doc, model);
  // The AIGC detection ordered with the check: its own section at the end (decision 0020).
  if (model.aigc) drawAigcSection(doc, model.aigc, model.text);
  drawFooters(doc, model);
  doc.end();
  return done;
}

/** The marked text (全文标明引文): every marked passage followed by its source number. */
export function renderMarkedPdf(model: ReportModel, qrPng: Uint8Array): Promise<Uint8Array> {
  const subject = '全文标明引文';
  const { doc, done } = createDoc(model, subject);
  drawHeader(doc, model, `论文相似性检测报告（${subject}）`, qrPng);
  drawFigures(doc, model);
  heading(doc, '全文标明引文（[n] 为相似文献序号）');
  drawMarkedText(doc, model, true);
  drawSources(doc, model);
  drawFooters(doc, model);
  doc.end();
  return done;
}
