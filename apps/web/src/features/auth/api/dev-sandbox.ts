import { useMutation } from '@tanstack/react-query';
import { getPublicConfig } from '../../../config/env';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/**
 * Development controls of the sandbox providers (docs/api/accounts.md, "Development controls").
 * They live outside the API prefix, on the API's origin.
 */
function devBase(): string {
  const { apiBase } = getPublicConfig();
  return /^https?:\/\//i.test(apiBase) ? new URL(apiBase).origin : '';
}

export interface SandboxSms {
  code: string;
  type: string;
  sentAt: string;
}

/** GET /__dev/sms/last?phone=: the last code the sandbox SMS provider "sent" to that phone. Silent. */
export function getSandboxSms(phone: string) {
  return request<SandboxSms>('/__dev/sms/last', {
    method: 'GET',
    baseURL: devBase(),
    data: { phone },
    silent: true,
  });
}

/** POST /__dev/wechat/scan {ticket, openId}: the sandbox WeChat platform delivers a scan of that QR. */
export function simulateWechatScan(ticket: string, openId: string) {
  return request<{ event: string }>('/__dev/wechat/scan', {
    baseURL: devBase(),
    data: { ticket, openId },
  });
}

/** Simulates the scan of a QR by the sandbox WeChat user (variables: ticket and open id). */
export function useSimulateWechatScan() {
  return useMutation({
    mutationFn: ({ ticket, openId }: { ticket: string; openId: string }) =>
      unwrap(simulateWechatScan(ticket, openId)),
  });
}
