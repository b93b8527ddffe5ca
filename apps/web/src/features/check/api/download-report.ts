import { request } from '../../../lib/request';
import type { ReportFormat } from '../types';

/** POST /freeCheck/downloadReport: the file (PDF, 全文标明引文 PDF, HTML or ZIP) and its Chinese name. */
export function downloadReport(orderId: string, format: ReportFormat) {
  return request('/freeCheck/downloadReport', {
    data: { orderId, format },
    responseType: 'blob',
    timeout: 120_000,
  });
}
