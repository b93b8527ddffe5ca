import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailMessage, MailProvider } from './mail.types.ts';

export interface SandboxMail {
  messageId: string;
  to: string;
  subject: string;
  attachments: string[];
  sentAt: string;
  /** The whole message as an SMTP server would receive it (RFC 5322, MIME). */
  raw: Buffer;
}

export interface SandboxMailProvider extends MailProvider {
  readonly kind: 'sandbox';
  /** Messages "sent" since start, oldest first. */
  readonly sent: readonly SandboxMail[];
}

/**
 * The embedded default: nothing leaves the machine. Each message is composed exactly as for SMTP
 * (nodemailer's MIME) and kept: in memory, and with `stateDir` as `<stateDir>/mail-outbox/*.eml`
 * (open one in a mail program to see what the user would receive).
 */
export function createSandboxMailProvider(
  options: { stateDir?: string | null; from?: string; now?: () => Date } = {},
): SandboxMailProvider {
  const compose = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const now = options.now ?? (() => new Date());
  const sent: SandboxMail[] = [];
  const dir = options.stateDir ? path.join(options.stateDir, 'mail-outbox') : null;
  return {
    kind: 'sandbox',
    sent,
    async send(message: MailMessage) {
      const info = await compose.sendMail({
        from: options.from ?? '科研服务网（沙箱） <noreply@sandbox.invalid>',
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.messageId ? { messageId: message.messageId } : {}),
        attachments: (message.attachments ?? []).map((a) => ({ ...a })),
      });
      const raw = info.message as Buffer;
      const at = now();
      const mail: SandboxMail = {
        messageId: String(info.messageId),
        to: message.to,
        subject: message.subject,
        attachments: (message.attachments ?? []).map((a) => a.filename),
        sentAt: at.toISOString(),
        raw,
      };
      sent.push(mail);
      if (sent.length > 200) sent.shift();
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, `${at.toISOString().replace(/[:.]/g, '-')}-${sent.length}.eml`), raw);
      }
      return { messageId: mail.messageId };
    },
  };
}
