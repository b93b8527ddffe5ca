import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { VerifyResult } from '../types';

/** POST /freeCheck/verify (public): the signed summary when report number and code match. */
export function verifyReport(reportNo: string, code: string) {
  return request<VerifyResult>('/freeCheck/verify', { data: { reportNo, code }, silent: true });
}

/**
 * Checks a report number and code on the user's request; `data` is the signed summary, `error`
 * the server's reason (or a network failure). Silent: the page shows the outcome itself.
 */
export function useVerifyReport() {
  return useMutation({
    mutationFn: ({ reportNo, code }: { reportNo: string; code: string }) =>
      unwrap(verifyReport(reportNo, code)),
  });
}
