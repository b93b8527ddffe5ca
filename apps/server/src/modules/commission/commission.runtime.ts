import { randomInt } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import type { MailProvider } from '../../providers/mail/index.ts';
import type { SmsProvider } from '../../providers/sms/index.ts';
import type { CheckRuntime } from '../check/check.runtime.ts';
import type { OrdersApi } from '../orders/index.ts';
import { TEXTS } from './commission.texts.ts';

/** What every part of the commission module shares: the runtime, the job names, the id check. */
export const ACCEPT_JOB = 'commission.accept';
export const NOTIFY_JOB = 'commission.notify';
export const MAIL_JOB = 'commission.mail';
export const PURGE_JOB = 'commission.purge';
export const SWEEP_JOB = 'commission.sweep';
/** How long an uploaded attachment waits for its form before it is deleted. */
export const LOOSE_ATTACHMENT_MS = 24 * 3600_000;

/** What the commission services need: built once by commission.module.ts. */
export interface CommissionRuntime {
  db: Kysely<Database>;
  orders: OrdersApi;
  /** The check module's runtime: its file storage and its document extraction (limits, worker). */
  check: CheckRuntime;
  /** Where the done notice goes; null: no SMS (a real provider without a template). */
  sms: { provider: SmsProvider; templateCode?: string } | null;
  /** The e-mail notices (the orders module's provider: SMTP, or the sandbox outbox). */
  mail: MailProvider;
  /** PUBLIC_BASE_URL without a trailing slash: the links in the e-mails. */
  publicBaseUrl: string;
  logger: Logger;
  now: () => Date;
}

export const notFound = () => new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.notFound);

/** 'WT' + yyyyMMddHHmmss in China time + 6 random digits. */
export function newCommissionNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `WT${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/** Today in China time, YYYY-MM-DD. */
export function chinaToday(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 24 * 3600_000).toISOString().slice(0, 10);
}

/** The day a commission paid at `paidAt` is due, from its goods' turnaround (null: no promise). */
export function dueDateOf(paidAt: Date, turnaroundDays: number | null): string | null {
  return turnaroundDays === null ? null : addDays(chinaToday(paidAt), turnaroundDays);
}
