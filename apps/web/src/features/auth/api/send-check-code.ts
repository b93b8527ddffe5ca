import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { SmsPurpose } from '../types';

/**
 * POST /sendCheckCode {phoneNumber, type}. Answers 短信发送成功; `data.sandbox` is true when the
 * server's SMS provider is the sandbox (the code can then be read from /__dev/sms/last).
 */
export function sendCheckCode(phoneNumber: string, type: SmsPurpose) {
  return request<{ sandbox?: boolean } | null>('/sendCheckCode', { data: { phoneNumber, type } });
}

/** Sends an SMS check code; `data.sandbox` says the sandbox SMS provider "sent" it. */
export function useSendCheckCode() {
  return useMutation({
    mutationFn: ({ phoneNumber, type }: { phoneNumber: string; type: SmsPurpose }) =>
      unwrap(sendCheckCode(phoneNumber, type)),
  });
}
