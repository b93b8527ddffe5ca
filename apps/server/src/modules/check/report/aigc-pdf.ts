import { type AigcReportModel, type AigcSection, isAigcFigureShown } from '@kyfw/contracts';
import { AIGC_TEXTS } from '../aigc/aigc.texts.ts';
import {
  BODY_SIZE,
  COLORS,
  contentWidth,
  createDoc,
  type Doc,
  drawFooters,
  drawHeader,
  ensureSpace,
  heading,
  MARGIN,
} from './pdf.ts';

/**
 * The AIGC detection report as a PDF (pdfkit, Noto Sans SC, in the check worker thread): header
 * with number, time, verification code and QR code; the document's index (参考值) or
 * 未见明显AI生成特征; the reasons; the full text with every flagged paragraph shaded by its index
 * and followed by its index and reasons.
 */

/** Background of a flagged paragraph: stronger for a higher index. */
export function shadeOf(score: number): { color: string; opacity: number } {
  return { color: '#cf1322', opacity: 0.08 + 0.22 * Math.min(1, Math.max(0, (score - 50) / 50)) };
}

/** What the figures and the shaded text need: the AIGC report, or the AIGC section of a similarity report. */
type AigcResult = Pick<AigcReportModel, 'figures' | 'verdict' | 'reasons' | 'modelVersion'>;

function drawFigures(doc: Doc, model: AigcResult, title: string = AIGC_TEXTS.resultHeading): void {
  heading(doc, title);
  const f = model.figures;
  const shown = isAigcFigureShown(f);
  const width = contentWidth(doc);
  doc
    .font('bold')
    .fontSize(16)
    .fillColor(shown ? COLORS.verbatim : COLORS.text);
  doc.text(
    shown ? `${AIGC_TEXTS.indexLabel}：${f.score.toFixed(1)}` : `${AIGC_TEXTS.indexLabel}：${model.verdict}`,
    MARGIN,
    doc.y,
    { width },
  );
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  const rows: [string, string][] = [
    [AIGC_TEXTS.verdict, model.verdict],
    [AIGC_TEXTS.totalChars, f.totalChars.toLocaleString('zh-CN')],
    [AIGC_TEXTS.scoredChars, f.scoredChars.toLocaleString('zh-CN')],
    [AIGC_TEXTS.flaggedParagraphs, `${f.flaggedCount} / ${f.paragraphCount}`],
    [AIGC_TEXTS.flaggedShare, `${(f.flaggedShare * 100).toFixed(1)}%`],
    [AIGC_TEXTS.modelVersion, model.modelVersion],
  ];
  doc.moveDown(0.3);
  for (const [label, value] of rows) {
    doc.font('bold').text(`${label}：`, MARGIN, doc.y, { continued: true, width });
    doc.font('regular').text(value);
  }
  if (model.reasons.length > 0) {
    heading(doc, AIGC_TEXTS.reasonsHeading);
    for (const r of model.reasons) doc.text(`· ${r}`, MARGIN, doc.y, { width });
  }
  doc.moveDown(0.4);
  doc
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(AIGC_TEXTS.thresholdNote(f.threshold), MARGIN, doc.y, { width });
  doc.fontSize(BODY_SIZE).fillColor(COLORS.text);
}

function drawText(doc: Doc, model: Pick<AigcReportModel, 'text' | 'paragraphs'>): void {
  const width = contentWidth(doc);
  const text = model.text.replace(/\t/g, ' ').replace(/\r/g, ' ');
  const options = { width, lineGap: 3 };
  const segments: { text: string; paragraph?: AigcReportModel['paragraphs'][number] }[] = [];
  let pos = 0;
  for (const p of model.paragraphs) {
    if (p.start > pos) segments.push({ text: text.slice(pos, p.start) });
    segments.push({ text: text.slice(p.start, p.end), paragraph: p });
    pos = p.end;
  }
  if (pos < text.length) segments.push({ text: text.slice(pos) });
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLORS.text);
  for (const seg of segments) {
    const lines = seg.text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const body = lines.join('\n');
    const p = seg.paragraph;
    if (!p?.flagged) {
      doc.fillColor(COLORS.text).text(body, MARGIN, doc.y, options);
      doc.moveDown(0.3);
      continue;
    }
    const note = AIGC_TEXTS.paragraphNote(p.score, p.reasons);
    const height = doc.heightOfString(body, options) + doc.fontSize(8.5).heightOfString(note, options) + 6;
    doc.fontSize(BODY_SIZE);
    ensureSpace(doc, Math.min(height, 200));
    const shade = shadeOf(p.score);
    const top = doc.y;
    const fits = top + height <= doc.page.height - doc.page.margins.bottom;
    if (fits) {
      doc
        .save()
        .rect(MARGIN - 4, top - 2, width + 8, height)
        .fillOpacity(shade.opacity)
        .fill(shade.color)
        .restore();
    }
    doc.fillColor(COLORS.text).text(body, MARGIN, top, options);
    doc
      .fontSize(8.5)
      .fillColor(COLORS.verbatim)
      .text(note, MARGIN, doc.y + 2, options);
    doc.fontSize(BODY_SIZE).fillColor(COLORS.text);
    doc.moveDown(0.5);
  }
}

/**
 * The AIGC section of a similarity report with the AIGC detection ordered with it (decision 0020),
 * on a page of its own: the figures (参考值) and the text with flagged paragraphs shaded, or why
 * the detection could not be done.
 */
export function drawAigcSection(doc: Doc, section: AigcSection, text: string): void {
  doc.addPage();
  if (section.status === 'failed') {
    heading(doc, AIGC_TEXTS.sectionHeading);
    doc
      .font('regular')
      .fontSize(BODY_SIZE)
      .fillColor(COLORS.text)
      .text(section.message, MARGIN, doc.y, { width: contentWidth(doc) });
    return;
  }
  drawFigures(doc, section, AIGC_TEXTS.sectionHeading);
  heading(doc, AIGC_TEXTS.sectionTextHeading);
  drawText(doc, { text, paragraphs: section.paragraphs });
}

export function renderAigcPdf(model: AigcReportModel, qrPng: Uint8Array): Promise<Uint8Array> {
  const subject = AIGC_TEXTS.reportTitle;
  const { doc, done } = createDoc(model, subject);
  drawHeader(doc, model, subject, qrPng);
  drawFigures(doc, model);
  heading(doc, AIGC_TEXTS.textHeading);
  drawText(doc, model);
  drawFooters(doc, model, AIGC_TEXTS.footer);
  doc.end();
  return done;
}
