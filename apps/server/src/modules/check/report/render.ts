import type { AigcReportModel, ReportModel } from '@kyfw/contracts';
import { zipSync } from 'fflate';
import QRCode from 'qrcode';
import { renderAigcPdf } from './aigc-pdf.ts';
import { renderHtml } from './html.ts';
import { renderMarkedPdf, renderReportPdf } from './pdf.ts';

export interface RenderedReport {
  pdf: Uint8Array;
  markedPdf: Uint8Array;
  html: Uint8Array;
  zip: Uint8Array;
}

/** Characters Windows, macOS or a zip tool would choke on in a file name. */
export function safeFileStem(title: string): string {
  const stem = title
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return [...stem].slice(0, 40).join('') || '论文';
}

/** The download names of the three files (also inside the zip). */
export function reportFileNames(model: Pick<ReportModel, 'title'>) {
  const stem = safeFileStem(model.title);
  return {
    pdf: `${stem}-检测报告.pdf`,
    marked: `${stem}-全文标明引文.pdf`,
    html: `${stem}-检测报告.html`,
    zip: `${stem}-检测报告.zip`,
  };
}

async function verifyQr(url: string): Promise<Uint8Array> {
  return QRCode.toBuffer(url, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' });
}

/** The AIGC detection report's one file, its PDF. */
export async function renderAigcReport(model: AigcReportModel): Promise<Uint8Array> {
  return renderAigcPdf(model, await verifyQr(model.verifyUrl));
}

/** Renders the PDF report, the marked-text PDF, the standalone HTML and the zip of all three. */
export async function renderReportFiles(model: ReportModel): Promise<RenderedReport> {
  const qrPng = await verifyQr(model.verifyUrl);
  const pdf = await renderReportPdf(model, qrPng);
  const markedPdf = await renderMarkedPdf(model, qrPng);
  const html = new TextEncoder().encode(renderHtml(model));
  const names = reportFileNames(model);
  const mtime = new Date(model.checkedAt);
  // PDFs are already compressed: store them; deflate the HTML.
  const zip = zipSync({
    [names.pdf]: [pdf, { level: 0, mtime }],
    [names.marked]: [markedPdf, { level: 0, mtime }],
    [names.html]: [html, { level: 6, mtime }],
  });
  return { pdf, markedPdf, html, zip };
}
