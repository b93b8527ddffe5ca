import {
  type Database,
  ENTITLEMENT_KINDS,
  type EntitlementGrantedBy,
  type EntitlementKind,
  type Kysely,
} from '@kyfw/db';
import { isEntitlementOpen } from './benefits.ts';
import {
  anyGrantDigest,
  type Entitlement,
  hasEntitlements,
  insertEntitlements,
  insertGrantDigests,
  listEntitlementsOf,
  unuseEntitlement,
  useEntitlement,
} from './entitlements.repo.ts';
import { type IdentifierKind, identifierDigest } from './secrets.ts';

export { ENTITLEMENT_KINDS, type EntitlementKind } from '@kyfw/db';
export type { Entitlement } from './entitlements.repo.ts';

/**
 * Free services of an account (spec §1: binding a phone or WeChat gives a free similarity check, a
 * free AIGC detection and an AI-writing trial; benefits.ts lists them with whether their service
 * exists).
 *
 * Decision (issue 12): registering with a phone (verified by its SMS code) or creating the account by
 * a WeChat scan binds that phone or WeChat, so the account earns the set at its creation, recorded
 * with `grantedBy` (phone_register, wechat_register). Binding the other identifier later grants
 * nothing more: unique (user_id, kind) in the table makes that impossible. Accounts created before
 * this decision earn it by their first binding (phone_bind, wechat_bind) or, holding none, when
 * their info is first read (`grantMissingSet`).
 *
 * The set is also earned once per phone number and once per WeChat account: when an account that
 * earned it is deleted or closed, a keyed digest of its phone and of its openid stays on record
 * (entitlement_grant_digests), and an account whose phone or WeChat is on record gets nothing —
 * deleting the account and registering again earns no second set.
 *
 * For other modules (check, reduction, AI writing): `listEntitlements`, `consumeEntitlement` inside
 * the transaction that creates the free order, and `restoreEntitlement` when that order fails.
 */

/** Every kind of the set granted by a first binding. */
export const BINDING_ENTITLEMENTS: readonly EntitlementKind[] = ENTITLEMENT_KINDS;

/** The account's entitlements, used ones included (`usedAt` set). */
export function listEntitlements(userId: string, options: { tx: Kysely<Database> }): Promise<Entitlement[]> {
  return listEntitlementsOf(options.tx, userId);
}

/**
 * Uses the account's entitlement of `kind`, atomically and once: of concurrent callers exactly one
 * gets the entitlement, the others (and every later caller) get null. Pass the transaction that
 * creates the free order as `tx`, so the entitlement is used exactly when the order exists.
 * `usedFor` (e.g. the order id) lets `restoreEntitlement` give it back.
 */
export async function consumeEntitlement(
  userId: string,
  kind: EntitlementKind,
  options: { tx: Kysely<Database>; usedFor?: string; now?: Date },
): Promise<Entitlement | null> {
  const used = await useEntitlement(options.tx, {
    userId,
    kind,
    usedFor: options.usedFor ?? null,
    now: options.now ?? new Date(),
  });
  return used ?? null;
}

/** Gives back an entitlement used for `usedFor` (the free service failed for good); true if it was. */
export function restoreEntitlement(
  userId: string,
  kind: EntitlementKind,
  options: { tx: Kysely<Database>; usedFor: string },
): Promise<boolean> {
  return unuseEntitlement(options.tx, { userId, kind, usedFor: options.usedFor });
}

/** The identifiers of an account that earn (and, once earned, block) the binding's set. */
export interface GrantIdentity {
  id: string;
  phoneNumber: string | null;
  wxOpenId: string | null;
}

function digestsOf(digestKey: string, account: GrantIdentity): { digest: string; kind: IdentifierKind }[] {
  const out: { digest: string; kind: IdentifierKind }[] = [];
  if (account.phoneNumber)
    out.push({ digest: identifierDigest(digestKey, 'phone', account.phoneNumber), kind: 'phone' });
  if (account.wxOpenId)
    out.push({ digest: identifierDigest(digestKey, 'wechat', account.wxOpenId), kind: 'wechat' });
  return out;
}

/**
 * Registration or the first binding: grants the set to `account` (as it is after the write: phone
 * and openid) unless it already has it, or its phone or WeChat earned it on an earlier account (a
 * digest on record). Returns how many were granted (0 or 3). Call after the account's write in the
 * same transaction, so a deletion that just freed the identifier (and recorded its digest) is seen.
 */
export async function grantOnBinding(
  tx: Kysely<Database>,
  account: GrantIdentity,
  grantedBy: EntitlementGrantedBy,
  now: Date,
  digestKey: string,
): Promise<number> {
  if (await wasGrantEarnedBefore(tx, account, digestKey)) return 0;
  return grantBindingEntitlements(tx, account.id, grantedBy, now);
}

/**
 * Grants the binding set unless the account already has it; returns how many were granted (0 or 3).
 * No check of the identifiers' history: bindings go through `grantOnBinding`.
 */
export function grantBindingEntitlements(
  tx: Kysely<Database>,
  userId: string,
  grantedBy: EntitlementGrantedBy,
  now: Date,
): Promise<number> {
  return insertEntitlements(tx, { userId, kinds: BINDING_ENTITLEMENTS, grantedBy, now });
}

/**
 * At erasure (deletion or closure), before the identifiers are cleared: an account that earned the
 * set leaves the keyed digests of its phone and openid, and nothing else, so they earn no second set.
 */
export async function recordEarnedGrant(
  tx: Kysely<Database>,
  account: GrantIdentity,
  now: Date,
  digestKey: string,
): Promise<void> {
  if (!(await hasEntitlements(tx, account.id))) return;
  await insertGrantDigests(tx, digestsOf(digestKey, account), now);
}

/** Whether the account's phone or WeChat already earned the set on an earlier account. */
export function wasGrantEarnedBefore(
  db: Kysely<Database>,
  account: GrantIdentity,
  digestKey: string,
): Promise<boolean> {
  return anyGrantDigest(
    db,
    digestsOf(digestKey, account).map((d) => d.digest),
  );
}

/**
 * Wire form of an entitlement (user info and export). `available`: usable now (unused, and its
 * service exists); `comingSoon`: its service does not exist yet (benefits.ts), shown as 即将开放.
 */
export function toEntitlementView(e: Entitlement) {
  const open = isEntitlementOpen(e.kind);
  return {
    kind: e.kind,
    grantedBy: e.grantedBy,
    grantedAt: e.grantedAt.toISOString(),
    usedAt: e.usedAt ? e.usedAt.toISOString() : null,
    available: open && e.usedAt === null,
    comingSoon: !open,
  };
}
