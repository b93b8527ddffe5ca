import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { AigcReportModel, ReportModel } from '../types';
import { checkKeys } from './keys';

/** What /freeCheck/report answers: a similarity report, or an AIGC report (kind 'aigc'). */
export type AnyReport = ReportModel | AigcReportModel;

export function isAigcReport(report: AnyReport): report is AigcReportModel {
  return 'kind' in report && report.kind === 'aigc';
}

/** POST /freeCheck/report: the report model of a finished check. */
export function getReport(orderId: string) {
  // A large thesis makes a large answer: allow more than the default 30 s on a slow line.
  return request<AnyReport>('/freeCheck/report', { data: { orderId }, silent: true, timeout: 60_000 });
}

export function useReport(orderId: string | null, enabled = true) {
  return useQuery({
    queryKey: checkKeys.report(orderId ?? ''),
    queryFn: async () => {
      const [error, data] = await getReport(orderId ?? '');
      if (error) throw error;
      if (!data) throw new Error('empty report');
      return data;
    },
    enabled: Boolean(orderId) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}
