import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A loopback SMTP server for tests of the real SMTP adapter: speaks SMTP (EHLO, AUTH PLAIN/LOGIN,
 * MAIL FROM, RCPT TO, DATA), accepts only the configured user and password (535 otherwise) and
 * keeps each message as received.
 */
export interface SmtpSandbox {
  port: number;
  received: { from: string; to: string[]; raw: Buffer }[];
  close(): Promise<void>;
}

export async function startSmtpSandbox(options: { user: string; pass: string }): Promise<SmtpSandbox> {
  const received: SmtpSandbox['received'] = [];
  const server = new SMTPServer({
    secure: false,
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
