import { MESSAGES, SMS_COUNTDOWN_SECONDS } from '@kyfw/contracts';
import { useCallback, useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { getSandboxSms } from '../api/dev-sandbox';
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
 * "sent" is read from /__dev/sms/last, for the 沙箱 notice.
 */
export function useSmsCode(purpose: SmsPurpose) {
  const { remaining, start } = useCountdown();
  const sendCode = useSendCheckCode();
  const { mutateAsync } = sendCode;
  const [sandboxCode, setSandboxCode] = useState<SandboxCode | null>(null);

  const send = useCallback(
    async (phone: string): Promise<boolean> => {
      let data: Awaited<ReturnType<typeof mutateAsync>>;
      try {
        data = await mutateAsync({ phoneNumber: phone, type: purpose });
      } catch {
        return false;
      }
      toast.success(MESSAGES.SMS_SENT);
      start(SMS_COUNTDOWN_SECONDS);
      setSandboxCode(null);
      if (data?.sandbox === true) {
        const [devError, sms] = await getSandboxSms(phone);
        if (!devError) setSandboxCode({ phone, code: sms.code });
      }
      return true;
    },
    [purpose, start, mutateAsync],
  );

  return { send, sending: sendCode.isPending, remaining, counting: remaining > 0, sandboxCode };
}
