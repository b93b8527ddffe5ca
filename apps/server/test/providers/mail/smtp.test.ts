import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailProvider, createSmtpMailProvider, MailError } from '../../../src/providers/mail/index.ts';
import { type SmtpSandbox, startSmtpSandbox } from '../../../src/providers/mail/smtp.sandbox.ts';

// The real SMTP adapter (nodemailer) against a loopback SMTP server that checks the login and keeps
// what it receives: the invoice mail arrives with its PDF attached, a wrong password is refused.

let smtp: SmtpSandbox;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41), Buffer.from('\n%%EOF')]);

beforeAll(async () => {
  smtp = await startSmtpSandbox({ user: 'invoice@kyfw.example.cn', pass: 'smtp-password' });
});

afterAll(async () => {
  await smtp.close();
});

describe('SMTP mail provider', () => {
  it('delivers a message with its attachment to the SMTP server, after logging in', async () => {
    const mail = createSmtpMailProvider({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      requireTls: false, // the sandbox speaks plain SMTP on loopback
      user: 'invoice@kyfw.example.cn',
      pass: 'smtp-password',
      from: '科研服务网 <invoice@kyfw.example.cn>',
    });
    const { messageId } = await mail.send({
      to: 'finance@example.com',
      subject: '【科研服务网】您的电子发票 FP1',
      text: '您申请的电子发票已开具。',
      attachments: [{ filename: '电子发票-FP1.pdf', content: PDF, contentType: 'application/pdf' }],
    });
    expect(messageId).toMatch(/@/);
    const got = smtp.received.at(-1)!;
    expect(got.from).toBe('invoice@kyfw.example.cn');
    expect(got.to).toEqual(['finance@example.com']);
    const raw = got.raw.toString('latin1');
    expect(raw).toContain(`Message-ID: ${messageId}`);
    expect(raw).toMatch(/Content-Type: application\/pdf/);
    // the PDF, base64 in the message, comes out byte for byte
    const body = raw.split(/Content-Type: application\/pdf[\s\S]*?\r\n\r\n/)[1]!.split('\r\n--')[0]!;
    expect(Buffer.from(body.replace(/\s/g, ''), 'base64').equals(PDF)).toBe(true);
  });

  it('says why when the server refuses the login', async () => {
    const mail = createSmtpMailProvider({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      requireTls: false,
      user: 'invoice@kyfw.example.cn',
      pass: 'wrong',
      from: 'invoice@kyfw.example.cn',
    });
    const error = await mail.send({ to: 'a@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).code).toBe('EAUTH');
  });

  it('is chosen by MAIL_PROVIDER=smtp, which needs SMTP_HOST and MAIL_FROM', () => {
    expect(() => createMailProvider({ MAIL_PROVIDER: 'smtp', SMTP_PORT: 465 })).toThrow(
      'mail configuration incomplete: SMTP_HOST is required when MAIL_PROVIDER=smtp; MAIL_FROM is required when MAIL_PROVIDER=smtp',
    );
    const setup = createMailProvider({
      MAIL_PROVIDER: 'smtp',
      SMTP_PORT: 465,
      SMTP_HOST: 'smtp.example.com',
      MAIL_FROM: 'x@example.com',
    });
    expect(setup.provider.kind).toBe('smtp');
    expect(setup.sandbox).toBeNull();
    expect(createMailProvider({ MAIL_PROVIDER: 'sandbox', SMTP_PORT: 465 }).provider.kind).toBe('sandbox');
  });
});
