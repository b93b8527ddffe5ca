import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';
import type { SmsPurpose } from '../types';

/**
 * POST /sendCheckCode {phoneNumber, type}. Answers 短信发送成功; `data.sandbox` is true when the
 * server's SMS provider is the sandbox (the code can then be read from /__dev/sms/last).
 */
export function sendCheckCode(
  phoneNumber: string,
  type: SmsPurpose,
  captcha?: { captchaId: string; captchaCode: string },
) {
  return request<{ sandbox?: boolean } | null>('/sendCheckCode', {
    data: { phoneNumber, type, ...(captcha ?? {}) },
  });
}

/**
 * Sends an SMS check code; `data.sandbox` says the sandbox SMS provider "sent" it. With the picture
 * check when the server asked for one (2024 / 2025, see useSmsCode).
 */
export function useSendCheckCode() {
  return useMutation({
    mutationFn: ({
      phoneNumber,
      type,
      captcha,
    }: {
      phoneNumber: string;
      type: SmsPurpose;
      captcha?: { captchaId: string; captchaCode: string };
    }) => unwrap(sendCheckCode(phoneNumber, type, captcha)),
  });
}
