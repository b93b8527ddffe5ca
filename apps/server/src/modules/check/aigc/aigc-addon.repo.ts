import type { CheckAigcAddonRow, CheckAigcAddonStatus, Database, Kysely } from '@kyfw/db';

/** Every SQL statement on `check_aigc_addons` (migration 0042): AIGC detection ordered with a check. */

export interface AigcAddonRecord {
  checkId: string;
  goodsId: string;
  goodsName: string;
  amountFen: number;
  free: boolean;
  status: CheckAigcAddonStatus;
  modelKey: string | null;
  score: number | null;
  reliable: boolean | null;
  flaggedChars: number | null;
  failureReason: string | null;
  refundedFen: number;
  finishedAt: Date | null;
}

function toAddon(row: CheckAigcAddonRow): AigcAddonRecord {
  return {
    checkId: row.check_id,
    goodsId: row.goods_id,
    goodsName: row.goods_name,
    amountFen: row.amount_fen,
    free: row.free,
    status: row.status,
    modelKey: row.model_key,
    score: row.score,
    reliable: row.reliable,
    flaggedChars: row.flagged_chars,
    failureReason: row.failure_reason,
    refundedFen: row.refunded_fen,
    finishedAt: row.finished_at,
  };
}

export async function insertAddon(
  db: Kysely<Database>,
  a: { checkId: string; goodsId: string; goodsName: string; amountFen: number; free: boolean; now: Date },
): Promise<AigcAddonRecord> {
  const row = await db
    .insertInto('check_aigc_addons')
    .values({
      check_id: a.checkId,
      goods_id: a.goodsId,
      goods_name: a.goodsName,
      amount_fen: a.amountFen,
      free: a.free,
      created_at: a.now,
      updated_at: a.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAddon(row);
}

export async function findAddon(db: Kysely<Database>, checkId: string): Promise<AigcAddonRecord | undefined> {
  const row = await db
    .selectFrom('check_aigc_addons')
    .selectAll()
    .where('check_id', '=', checkId)
    .executeTakeFirst();
  return row ? toAddon(row) : undefined;
}

/** The add-ons of several checks (a page of the list), by check id. */
export async function findAddons(
  db: Kysely<Database>,
  checkIds: readonly string[],
): Promise<Map<string, AigcAddonRecord>> {
  if (checkIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('check_aigc_addons')
    .selectAll()
    .where('check_id', 'in', [...checkIds])
    .execute();
  return new Map(rows.map((r) => [r.check_id, toAddon(r)]));
}

/** pending -> done with the stored section and its figures; false when it was not pending. */
export async function markAddonDone(
  db: Kysely<Database>,
  checkId: string,
  done: { modelKey: string; score: number; reliable: boolean; flaggedChars: number; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('check_aigc_addons')
    .set({
      status: 'done',
      model_key: done.modelKey,
      score: done.score,
      reliable: done.reliable,
      flagged_chars: done.flaggedChars,
      failure_reason: null,
      finished_at: done.now,
      updated_at: done.now,
    })
    .where('check_id', '=', checkId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** pending -> failed (for good) with the reason the user reads; false when it was not pending. */
export async function markAddonFailed(
  db: Kysely<Database>,
  checkId: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('check_aigc_addons')
    .set({ status: 'failed', failure_reason: reason.slice(0, 200), finished_at: now, updated_at: now })
    .where('check_id', '=', checkId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What was refunded for the failed part (once the refund was recorded). */
export async function setAddonRefunded(
  db: Kysely<Database>,
  checkId: string,
  refundedFen: number,
  now: Date,
): Promise<void> {
  await db
    .updateTable('check_aigc_addons')
    .set({ refunded_fen: refundedFen, updated_at: now })
    .where('check_id', '=', checkId)
    .execute();
}

/** A free check run again after it failed: a failed add-on is detected again (its free use taken again). */
export async function reopenFailedAddon(db: Kysely<Database>, checkId: string, now: Date): Promise<void> {
  await db
    .updateTable('check_aigc_addons')
    .set({ status: 'pending', failure_reason: null, finished_at: null, updated_at: now })
    .where('check_id', '=', checkId)
    .where('status', '=', 'failed')
    .execute();
}

/** Account deletion: the stored section goes with the account's files (its figures stay, unnamed). */
export async function clearAccountAddonKeys(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('check_aigc_addons')
    .set({ model_key: null })
    .where('check_id', 'in', db.selectFrom('checks').select('id').where('user_id', '=', userId))
    .execute();
}

/** The stored section keys of an account's add-ons (its deletion's purge job removes them). */
export async function listAccountAddonKeys(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('check_aigc_addons')
    .innerJoin('checks', 'checks.id', 'check_aigc_addons.check_id')
    .select('check_aigc_addons.model_key')
    .where('checks.user_id', '=', userId)
    .execute();
  return rows.map((r) => r.model_key).filter((k): k is string => typeof k === 'string');
}
