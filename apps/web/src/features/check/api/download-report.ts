import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import { saveFile } from '../../../lib/save-file';
import { fallbackFileName } from '../lib/report-file-name';
import type { ReportFormat } from '../types';

/** POST /freeCheck/downloadReport: the file (PDF, 全文标明引文 PDF, HTML or ZIP) and its Chinese name. */
export function downloadReport(orderId: string, format: ReportFormat) {
  return request('/freeCheck/downloadReport', {
    data: { orderId, format },
    responseType: 'blob',
    timeout: 120_000,
  });
}

export interface DownloadReportInput {
  orderId: string;
  format: ReportFormat;
  /** The paper's title, for the file name when the answer carries none. */
  title: string;
}

/** Fetches one report file and saves it under its Chinese name; `variables` tell which one is on its way. */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async ({ orderId, format, title }: DownloadReportInput) => {
      const file = await unwrap(downloadReport(orderId, format));
      saveFile(file.blob, file.filename ?? fallbackFileName(title, format));
    },
  });
}
