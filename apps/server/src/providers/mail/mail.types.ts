/** An e-mail with optional attachments (the invoice PDF). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID header (`<local@host>`); a resend of the same message carries the same one. Default: generated. */
  messageId?: string;
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
}

export interface MailProvider {
  readonly kind: 'sandbox' | 'smtp';
  /** Sends the message; the id the server gave it. @throws MailError */
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/** The mail server refused or could not be reached (`code`: nodemailer's, e.g. EAUTH, ECONNECTION). */
export class MailError extends Error {
  override readonly name = 'MailError';
  readonly code: string | undefined;

  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}
