import { INACTIVITY_CLOSE_MONTHS } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SmsProvider } from '../../providers/sms/index.ts';
import { eraseAccount } from './account-data.service.ts';
import type { AccountHooks } from './account-hooks.ts';
import { DAY_MS, INACTIVITY_NOTICE_LEAD_DAYS } from './accounts.policy.ts';
import { TEXTS } from './accounts.texts.ts';
import { findInactivityNotice, insertInactivityNotice } from './notices.repo.ts';
import { listInactiveUsers } from './users.repo.ts';

export interface InactivitySweepDeps {
  db: Kysely<Database>;
  now: Date;
  /** Sends the notice SMS (with `noticeTemplate`); null or no template: the notice is only recorded. */
  sms: SmsProvider | null;
  noticeTemplate?: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** HMAC key of the identifier digests kept after an erasure (secrets.ts loadDigestKey). */
  digestKey: string;
  /** The accounts service's lifecycle hooks (the other modules' deletion hooks). */
  hooks: AccountHooks;
  /** Accounts handled per page; default 200. */
  pageSize?: number;
}

export interface InactivitySweepResult {
  noticed: number;
  closed: number;
}

function monthsBefore(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

function monthsAfter(date: Date, months: number): Date {
  return monthsBefore(date, -months);
}

/**
 * Closes accounts without a login for 12 months (terms, spec §1), after a notice:
 * - at 11 months without login (30 days before the 12), a notice is recorded — and sent by SMS to the
 *   account's phone when a notice template is configured — saying when the account will be closed;
 * - once 12 months are reached and the notice is at least 30 days old, with no login since, the
 *   account is closed: its personal data erased as on deletion (status 'closed'), sessions revoked.
 * A login in between changes last_login_at, which voids the notice (notices are keyed by the last
 * login they are about). Idempotent: a second run on the same day does nothing more; the notice row
 * is written before the SMS goes out, so a crash never sends twice.
 */
export async function runInactivitySweep(deps: InactivitySweepDeps): Promise<InactivitySweepResult> {
  const { db, now } = deps;
  const closeBefore = monthsBefore(now, INACTIVITY_CLOSE_MONTHS);
  const noticeBefore = new Date(closeBefore.getTime() + INACTIVITY_NOTICE_LEAD_DAYS * DAY_MS);
  const pageSize = deps.pageSize ?? 200;
  const result: InactivitySweepResult = { noticed: 0, closed: 0 };

  let after: { lastLoginAt: Date; id: string } | undefined;
  for (;;) {
    const page = await listInactiveUsers(db, noticeBefore, pageSize, after);
    if (page.length === 0) break;
    const lastOfPage = page[page.length - 1];
    after = { lastLoginAt: lastOfPage.lastLoginAt, id: lastOfPage.id };

    for (const user of page) {
      const notice = await findInactivityNotice(db, user.id, user.lastLoginAt);
      if (!notice) {
        const closeAfter = new Date(
          Math.max(
            now.getTime() + INACTIVITY_NOTICE_LEAD_DAYS * DAY_MS,
            monthsAfter(user.lastLoginAt, INACTIVITY_CLOSE_MONTHS).getTime(),
          ),
        );
        const canSms = user.phoneNumber !== null && deps.sms !== null && deps.noticeTemplate !== undefined;
        const inserted = await insertInactivityNotice(db, {
          userId: user.id,
          channel: canSms ? 'sms' : 'record',
          lastLoginAt: user.lastLoginAt,
          sentAt: now,
          closeAfter,
        });
        if (!inserted) continue;
        result.noticed += 1;
        if (canSms && user.phoneNumber && deps.sms) {
          const days = Math.ceil((closeAfter.getTime() - now.getTime()) / DAY_MS);
          try {
            await deps.sms.send({
              phone: user.phoneNumber,
              purpose: TEXTS.noticeSmsPurpose,
              // The notice template has one variable, the days left before closure.
              params: { code: String(days) },
              templateCode: deps.noticeTemplate,
            });
          } catch (error) {
            deps.logger.warn(
              { err: error, userId: user.id },
              'inactivity notice SMS failed; notice recorded',
            );
          }
        }
        continue;
      }
      const isDue = now.getTime() >= notice.closeAfter.getTime() && user.lastLoginAt < closeBefore;
      if (!isDue) continue;
      const closed = await db
        .transaction()
        .execute((tx) => eraseAccount(db, tx, user.id, 'closed', now, deps.digestKey, deps.hooks));
      if (closed) result.closed += 1;
    }
    if (page.length < pageSize) break;
  }
  deps.logger.info(result, 'inactive accounts swept');
  return result;
}
