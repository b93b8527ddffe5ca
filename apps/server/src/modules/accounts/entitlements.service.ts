import {
  type Database,
  ENTITLEMENT_KINDS,
  type EntitlementGrantedBy,
  type EntitlementKind,
  type Kysely,
} from '@kyfw/db';
import {
  type Entitlement,
  insertEntitlements,
  listEntitlementsOf,
  unuseEntitlement,
  useEntitlement,
} from './entitlements.repo.ts';

export { ENTITLEMENT_KINDS, type EntitlementKind } from '@kyfw/db';
export type { Entitlement } from './entitlements.repo.ts';

/**
 * Free services earned by binding (spec §1: binding a phone or WeChat gives a free similarity check,
 * a free AIGC detection and an AI-writing trial).
 *
 * Decision: the set is granted once per account, by the first binding that completes it — binding a
 * phone to a WeChat-created account, or WeChat to a phone-registered account — and recorded with
 * `grantedBy`. A later second binding (e.g. after unbinding is ever added) grants nothing more:
 * unique (user_id, kind) in the table makes that impossible. Registering with a phone, or the first
 * WeChat scan creating an account, is not a binding and grants nothing.
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

/** Grants the binding set unless the account already has it; returns how many were granted (0 or 3). */
export function grantBindingEntitlements(
  tx: Kysely<Database>,
  userId: string,
  grantedBy: EntitlementGrantedBy,
  now: Date,
): Promise<number> {
  return insertEntitlements(tx, { userId, kinds: BINDING_ENTITLEMENTS, grantedBy, now });
}

/** Wire form of an entitlement (user info and export). */
export function toEntitlementView(e: Entitlement) {
  return {
    kind: e.kind,
    grantedBy: e.grantedBy,
    grantedAt: e.grantedAt.toISOString(),
    usedAt: e.usedAt ? e.usedAt.toISOString() : null,
    available: e.usedAt === null,
  };
}
