import type { Database, EntitlementGrantedBy, EntitlementKind, EntitlementRow, Kysely } from '@kyfw/db';

export interface Entitlement {
  id: string;
  userId: string;
  kind: EntitlementKind;
  grantedBy: EntitlementGrantedBy;
  grantedAt: Date;
  usedAt: Date | null;
  usedFor: string | null;
}

function toEntitlement(row: EntitlementRow): Entitlement {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    grantedBy: row.granted_by,
    grantedAt: row.granted_at,
    usedAt: row.used_at,
    usedFor: row.used_for,
  };
}

export async function listEntitlementsOf(db: Kysely<Database>, userId: string): Promise<Entitlement[]> {
  const rows = await db
    .selectFrom('entitlements')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('granted_at')
    .orderBy('kind')
    .execute();
  return rows.map(toEntitlement);
}

/** Inserts the kinds the account does not hold yet; returns how many were new. */
export async function insertEntitlements(
  db: Kysely<Database>,
  values: { userId: string; kinds: readonly EntitlementKind[]; grantedBy: EntitlementGrantedBy; now: Date },
): Promise<number> {
  if (values.kinds.length === 0) return 0;
  const rows = await db
    .insertInto('entitlements')
    .values(
      values.kinds.map((kind) => ({
        user_id: values.userId,
        kind,
        granted_by: values.grantedBy,
        granted_at: values.now,
      })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
    .returning('id')
    .execute();
  return rows.length;
}

/** Marks the unused entitlement of this kind used, atomically: exactly one caller wins. */
export async function useEntitlement(
  db: Kysely<Database>,
  values: { userId: string; kind: EntitlementKind; usedFor: string | null; now: Date },
): Promise<Entitlement | undefined> {
  const row = await db
    .updateTable('entitlements')
    .set({ used_at: values.now, used_for: values.usedFor })
    .where('user_id', '=', values.userId)
    .where('kind', '=', values.kind)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toEntitlement(row) : undefined;
}

/** Gives a used entitlement back (the service that used it failed); only if `usedFor` matches. */
export async function unuseEntitlement(
  db: Kysely<Database>,
  values: { userId: string; kind: EntitlementKind; usedFor: string },
): Promise<boolean> {
  const result = await db
    .updateTable('entitlements')
    .set({ used_at: null, used_for: null })
    .where('user_id', '=', values.userId)
    .where('kind', '=', values.kind)
    .where('used_for', '=', values.usedFor)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteEntitlementsOf(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('entitlements').where('user_id', '=', userId).execute();
}

/** Whether the account holds any entitlement (used or not): it earned the binding's set. */
export async function hasEntitlements(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('entitlements')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records identifier digests that earned the free services (a digest already on record stays). */
export async function insertGrantDigests(
  db: Kysely<Database>,
  digests: readonly { digest: string; kind: 'phone' | 'wechat' }[],
  now: Date,
): Promise<void> {
  if (digests.length === 0) return;
  await db
    .insertInto('entitlement_grant_digests')
    .values(digests.map((d) => ({ digest: d.digest, kind: d.kind, recorded_at: now })))
    .onConflict((oc) => oc.column('digest').doNothing())
    .execute();
}

/** Whether any of these identifier digests is on record. */
export async function anyGrantDigest(db: Kysely<Database>, digests: readonly string[]): Promise<boolean> {
  if (digests.length === 0) return false;
  const row = await db
    .selectFrom('entitlement_grant_digests')
    .select('digest')
    .where('digest', 'in', digests)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
