import { randomUUID } from 'node:crypto';
import {
  isMainlandMobile,
  normalizePhone,
  SmsInvalidPhoneError,
  type SmsOutboxMessage,
  type SmsProvider,
  type SmsSendInput,
  type SmsSendResult,
} from './sms.types.ts';
import type { SmsOutbox } from './sms-outbox.ts';

export interface SandboxSmsProvider extends SmsProvider {
  readonly kind: 'sandbox';
  /** The last message the sandbox "sent" to this phone, or null. */
  lastMessage(phone: string): SmsOutboxMessage | null;
}

/**
 * The embedded default: nothing leaves the machine, every message lands in the outbox where
 * `GET /__dev/sms/last` (and the 沙箱 notice in the browser) read it.
 */
export function createSandboxSmsProvider(options: {
  outbox: SmsOutbox;
  now?: () => Date;
}): SandboxSmsProvider {
  const { outbox } = options;
  const now = options.now ?? (() => new Date());
  return {
    kind: 'sandbox',
    async send(input: SmsSendInput): Promise<SmsSendResult> {
      const phone = normalizePhone(input.phone);
      if (!phone || !isMainlandMobile(phone)) {
        throw new SmsInvalidPhoneError('not a mainland mobile number', 'sandbox');
      }
      const messageId = randomUUID();
      outbox.record({
        messageId,
        phone,
        type: input.purpose,
        code: input.params.code,
        sentAt: now().toISOString(),
        via: 'sandbox',
      });
      return { messageId };
    },
    lastMessage(phone: string) {
      const p = normalizePhone(phone);
      return p ? outbox.lastMessage(p) : null;
    },
  };
}
