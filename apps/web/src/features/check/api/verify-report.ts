import { request } from '../../../lib/request';
import type { VerifyResult } from '../types';

/** POST /freeCheck/verify (public): the signed summary when report number and code match. */
export function verifyReport(reportNo: string, code: string) {
  return request<VerifyResult>('/freeCheck/verify', { data: { reportNo, code }, silent: true });
}
