import { z } from 'zod';
import { envVar } from '../../lib/env.ts';

const optionalString = envVar(z.string().trim().optional());

/**
 * Environment fragment for e-mail (the issued invoice is sent to the address on it); merge its
 * `.shape` into the server's env schema. `listMailConfigProblems` says what SMTP is missing.
 */
export const mailConfigSchema = z.object({
  SMTP_HOST: optionalString,
  SMTP_PORT: envVar(z.coerce.number().int().min(1).max(65535).default(465)),
  /** TLS from the start (port 465); false: STARTTLS when the server offers it (port 587). */
  SMTP_SECURE: envVar(z.enum(['true', 'false', '1', '0']).optional()),
  SMTP_USER: optionalString,
  SMTP_PASS: optionalString,
  /** The sender, e.g. 科研服务网 <invoice@kyfw.example.cn>. */
  MAIL_FROM: optionalString,
});

export type MailEnv = z.infer<typeof mailConfigSchema>;

export interface MailConfig extends MailEnv {
  MAIL_PROVIDER: 'sandbox' | 'smtp';
}

/** One message per variable SMTP needs but is missing; empty when complete (or sandbox). */
export function listMailConfigProblems(config: MailConfig): string[] {
  if (config.MAIL_PROVIDER !== 'smtp') return [];
  return (['SMTP_HOST', 'MAIL_FROM'] as const)
    .filter((k) => !config[k])
    .map((k) => `${k} is required when MAIL_PROVIDER=smtp`);
}
