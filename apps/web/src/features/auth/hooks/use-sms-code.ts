import { ErrorCode, MESSAGES, SMS_COUNTDOWN_SECONDS } from '@kyfw/contracts';
import { useCallback, useState } from 'react';
import { RequestError } from '../../../lib/request';
import { toast } from '../../../stores/ui-store';
import { getSandboxSms } from '../api/dev-sandbox';
import { type Captcha, getCaptcha } from '../api/get-captcha';
import { useSendCheckCode } from '../api/send-check-code';
import type { SmsPurpose } from '../types';
import { useCountdown } from './use-countdown';

export interface SandboxCode {
  phone: string;
  code: string;
}

/**
 * Sending an SMS check code (spec §4): /sendCheckCode, 短信发送成功, then a 60 s countdown during
 * which the button is disabled. With the sandbox SMS provider (the answer says so) the code just
 * "sent" is read from /__dev/sms/last, for the 沙箱 notice. When the server asks for a picture check
 * (2024 an address that sent many codes, 2025 a wrong or expired one) a new one is fetched and
 * shown (`captcha`); the next send carries the answer typed into `captchaCode`.
 */
export function useSmsCode(purpose: SmsPurpose) {
  const { remaining, start } = useCountdown();
  const sendCode = useSendCheckCode();
  const { mutateAsync } = sendCode;
  const [sandboxCode, setSandboxCode] = useState<SandboxCode | null>(null);
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [captchaCode, setCaptchaCode] = useState('');

  const refreshCaptcha = useCallback(async () => {
    const [error, next] = await getCaptcha();
    setCaptchaCode('');
    if (!error) setCaptcha(next);
  }, []);

  const send = useCallback(
    async (phone: string): Promise<boolean> => {
      let data: Awaited<ReturnType<typeof mutateAsync>>;
      try {
        data = await mutateAsync({
          phoneNumber: phone,
          type: purpose,
          captcha: captcha ? { captchaId: captcha.captchaId, captchaCode: captchaCode.trim() } : undefined,
        });
      } catch (error) {
        const code = error instanceof RequestError ? error.code : null;
        if (code === ErrorCode.CAPTCHA_REQUIRED || code === ErrorCode.CAPTCHA_WRONG) await refreshCaptcha();
        return false;
      }
      toast.success(MESSAGES.SMS_SENT);
      start(SMS_COUNTDOWN_SECONDS);
      setCaptcha(null);
      setCaptchaCode('');
      setSandboxCode(null);
      if (data?.sandbox === true) {
        const [devError, sms] = await getSandboxSms(phone);
        if (!devError) setSandboxCode({ phone, code: sms.code });
      }
      return true;
    },
    [purpose, start, mutateAsync, captcha, captchaCode, refreshCaptcha],
  );

  return {
    send,
    sending: sendCode.isPending,
    remaining,
    counting: remaining > 0,
    sandboxCode,
    captcha,
    captchaCode,
    setCaptchaCode,
    refreshCaptcha,
  };
}
