import type { Database, Kysely } from '@kyfw/db';
import { ACCOUNT_ROWS_RETENTION_MS } from './accounts.policy.ts';
import { deleteOldAddressRows } from './captcha.ts';
import { deleteEndedSessions } from './sessions.repo.ts';
import { deleteOldCodes } from './sms-codes.repo.ts';
import { deleteOldLoginAttempts, deleteOldRateEvents } from './throttle.repo.ts';
import { deleteOldQrSessions, deleteOldWechatEvents } from './wechat.repo.ts';

/**
 * Deletes what the accounts module no longer needs, 30 days after it stopped mattering: SMS codes,
 * login attempts, rate events, picture checks and address failures, QR sessions, WeChat event keys (the platform never retries after
 * 15 s, and pushes older than 5 minutes are refused by the signature check anyway), and sessions
 * that expired or were revoked. Returns the counts.
 */
export async function purgeAccountRows(db: Kysely<Database>, now: Date) {
  const before = new Date(now.getTime() - ACCOUNT_ROWS_RETENTION_MS);
  return {
    smsCodes: await deleteOldCodes(db, before),
    loginAttempts: await deleteOldLoginAttempts(db, before),
    rateEvents: await deleteOldRateEvents(db, before),
    qrSessions: await deleteOldQrSessions(db, before),
    wechatEvents: await deleteOldWechatEvents(db, before),
    sessions: await deleteEndedSessions(db, before),
    ...(await deleteOldAddressRows(db, before)),
  };
}
