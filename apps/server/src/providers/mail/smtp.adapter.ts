import nodemailer from 'nodemailer';
import { MailError, type MailMessage, type MailProvider } from './mail.types.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the start (465); false: plain, upgraded by STARTTLS when offered (587, 25). */
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
  /** Refuse a connection without TLS (default: true when user and password are given). */
  requireTls?: boolean;
  /** Seconds to wait for the server at each step (default 20). */
  timeoutSeconds?: number;
}

/** Sends through an SMTP server (an enterprise mailbox, Alibaba DirectMail, Tencent SES...). */
export function createSmtpMailProvider(options: SmtpOptions): MailProvider {
  const timeout = (options.timeoutSeconds ?? 20) * 1000;
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    requireTLS: options.requireTls ?? Boolean(options.user && options.pass),
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? '' } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.messageId ? { messageId: message.messageId } : {}),
          attachments: (message.attachments ?? []).map((a) => ({ ...a })),
        });
        return { messageId: String(info.messageId) };
      } catch (error) {
        const e = error as { message?: string; code?: string; responseCode?: number };
        throw new MailError(`SMTP send failed: ${e.code ?? ''} ${e.responseCode ?? ''}`.trim(), e.code);
      }
    },
  };
}
