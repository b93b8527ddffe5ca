import type { ReportFormat } from '../types';

const EXTENSIONS: Record<ReportFormat, string> = { pdf: 'pdf', marked: 'pdf', html: 'html', zip: 'zip' };
const SUFFIX: Record<ReportFormat, string> = {
  pdf: '检测报告',
  marked: '全文标明引文',
  html: '检测报告',
  zip: '检测报告全套',
};

/** The file name when the answer carries none (the server sends a Chinese one). */
export function fallbackFileName(title: string, format: ReportFormat): string {
  const base =
    title
      .replace(/[\\/:*?"<>|\r\n]+/g, ' ')
      .trim()
      .slice(0, 60) || '论文';
  return `${base}-${SUFFIX[format]}.${EXTENSIONS[format]}`;
}
