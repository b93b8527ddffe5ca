import type { Database, Kysely } from '@kyfw/db';
import type { AccountHooks } from './account-hooks.ts';
import { recordAccountRequest } from './account-requests.repo.ts';
import { deleteEntitlementsOf, listEntitlementsOf } from './entitlements.repo.ts';
import { recordEarnedGrant, toEntitlementView } from './entitlements.service.ts';
import { listNoticesOf } from './notices.repo.ts';
import { clearSessionDeviceData, listUserSessions, revokeUserSessions } from './sessions.repo.ts';
import { deleteCodesOf } from './sms-codes.repo.ts';
import { deleteLoginAttemptsOfPhone } from './throttle.repo.ts';
import { eraseUser, findUserById, lockUserForErasure } from './users.repo.ts';
import { deleteQrSessionsOf } from './wechat.repo.ts';

/**
 * Deletes (user's request) or closes (inactivity) an account inside `tx` (a transaction of `db`, the
 * app's database handle, which the hooks get to reach other modules' APIs): other modules' deletion
 * hooks de-identify what they keep (orders, payments); an account that earned the free services
 * leaves the keyed digests of its phone and openid (under `digestKey`, so they earn no second set);
 * then the account's codes, login attempts, QR sessions and entitlements are deleted, its sessions
 * revoked and stripped of device data, and the row keeps only its id, status and dates. Returns
 * false when the account was not active.
 */
export async function eraseAccount(
  db: Kysely<Database>,
  tx: Kysely<Database>,
  userId: string,
  status: 'deleted' | 'closed',
  now: Date,
  digestKey: string,
  hooks: AccountHooks,
): Promise<boolean> {
  // Not FOR UPDATE: see lockUserForErasure. The hooks then lock the account's orders before its
  // services' records; the row's own FOR UPDATE (eraseUser clears unique columns) comes last.
  const user = await lockUserForErasure(tx, userId);
  if (user?.status !== 'active') return false;
  await hooks.runDeletion(tx, userId, { db, now, status });
  await recordEarnedGrant(tx, user, now, digestKey);
  await deleteCodesOf(tx, { phone: user.phoneNumber, userId });
  if (user.phoneNumber) await deleteLoginAttemptsOfPhone(tx, user.phoneNumber);
  await deleteQrSessionsOf(tx, userId);
  await deleteEntitlementsOf(tx, userId);
  await revokeUserSessions(tx, userId, status === 'deleted' ? 'account_deleted' : 'account_closed', now);
  // The user's own deletion is recorded for the console (the id and the time only).
  if (status === 'deleted') await recordAccountRequest(tx, userId, 'deletion', now);
  await clearSessionDeviceData(tx, userId);
  return eraseUser(tx, userId, status, now);
}

/** "Export my data": everything the service keeps about the account, as one JSON document. */
export async function buildAccountExport(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  hooks: AccountHooks,
) {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`account ${userId} not found`);
  const [entitlements, sessions, notices, sections] = await Promise.all([
    listEntitlementsOf(db, userId),
    listUserSessions(db, userId),
    listNoticesOf(db, userId),
    hooks.collectExport(db, userId),
  ]);
  return {
    exportedAt: now.toISOString(),
    account: {
      id: user.id,
      phoneNumber: user.phoneNumber,
      wxOpenId: user.wxOpenId,
      hasPassword: user.passwordHash !== null,
      realName: user.realName,
      unitName: user.unitName,
      gender: user.gender,
      major: user.major,
      education: user.education,
      status: user.status,
      createdAt: user.createdAt.toISOString(),
      lastLoginAt: user.lastLoginAt.toISOString(),
      passwordChangedAt: user.passwordChangedAt?.toISOString() ?? null,
    },
    entitlements: entitlements.map(toEntitlementView),
    sessions: sessions.map((s) => ({
      loginMethod: s.loginMethod,
      createdAt: s.createdAt.toISOString(),
      expiresAt: s.expiresAt.toISOString(),
      revokedAt: s.revokedAt?.toISOString() ?? null,
      userAgent: s.userAgent,
      ip: s.clientIp,
    })),
    notices: notices.map((n) => ({ kind: n.kind, channel: n.channel, sentAt: n.sentAt.toISOString() })),
    ...sections,
  };
}
