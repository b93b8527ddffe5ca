import type { MailConfig } from './mail.config.ts';
import { listMailConfigProblems } from './mail.config.ts';
import type { MailProvider } from './mail.types.ts';
import { createSandboxMailProvider, type SandboxMailProvider } from './sandbox.provider.ts';
import { createSmtpMailProvider } from './smtp.adapter.ts';

export { listMailConfigProblems, type MailConfig, mailConfigSchema } from './mail.config.ts';
export * from './mail.types.ts';
export { createSandboxMailProvider, type SandboxMail, type SandboxMailProvider } from './sandbox.provider.ts';
export { createSmtpMailProvider, type SmtpOptions } from './smtp.adapter.ts';

/**
 * The configured mail provider: SMTP, or the sandbox (messages kept, see sandbox.provider.ts).
 * @throws Error listing the missing variables when SMTP is chosen without them
 */
export function createMailProvider(
  config: MailConfig,
  options: { stateDir?: string | null } = {},
): { provider: MailProvider; sandbox: SandboxMailProvider | null } {
  const problems = listMailConfigProblems(config);
  if (problems.length > 0) throw new Error(`mail configuration incomplete: ${problems.join('; ')}`);
  if (config.MAIL_PROVIDER === 'smtp') {
    const secure = config.SMTP_SECURE ? ['true', '1'].includes(config.SMTP_SECURE) : config.SMTP_PORT === 465;
    return {
      provider: createSmtpMailProvider({
        host: config.SMTP_HOST!,
        port: config.SMTP_PORT,
        secure,
        user: config.SMTP_USER,
        pass: config.SMTP_PASS,
        from: config.MAIL_FROM!,
      }),
      sandbox: null,
    };
  }
  const sandbox = createSandboxMailProvider({ stateDir: options.stateDir, from: config.MAIL_FROM });
  return { provider: sandbox, sandbox };
}
