import type { LiveFigures } from '@kyfw/contracts';
import { type Database, type Kysely, sql } from '@kyfw/db';

/** The SQL of revise in the report: check_revisions and check_recheck_counts (migration 0073). */

export interface RevisionRecord {
  versionNo: number | null;
  /** Paragraph index -> text. */
  edits: Map<number, string>;
  figures: LiveFigures;
  chars: number;
  createdAt: Date;
  updatedAt: Date;
}

function editsOf(value: unknown): Map<number, string> {
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, string>;
  return new Map(
    Object.entries(raw ?? {})
      .map(([k, v]) => [Number(k), v] as [number, string])
      .sort((a, b) => a[0] - b[0]),
  );
}

function toRevision(row: {
  version_no: number | null;
  edits: unknown;
  figures: unknown;
  chars: number;
  created_at: Date;
  updated_at: Date;
}): RevisionRecord {
  return {
    versionNo: row.version_no,
    edits: editsOf(row.edits),
    figures: (typeof row.figures === 'string' ? JSON.parse(row.figures) : row.figures) as LiveFigures,
    chars: row.chars,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = ['version_no', 'edits', 'figures', 'chars', 'created_at', 'updated_at'] as const;

export async function findDraft(db: Kysely<Database>, checkId: string): Promise<RevisionRecord | undefined> {
  const row = await db
    .selectFrom('check_revisions')
    .select(COLUMNS)
    .where('check_id', '=', checkId)
    .where('version_no', 'is', null)
    .executeTakeFirst();
  return row ? toRevision(row) : undefined;
}

export async function findVersion(
  db: Kysely<Database>,
  checkId: string,
  versionNo: number,
): Promise<RevisionRecord | undefined> {
  const row = await db
    .selectFrom('check_revisions')
    .select(COLUMNS)
    .where('check_id', '=', checkId)
    .where('version_no', '=', versionNo)
    .executeTakeFirst();
  return row ? toRevision(row) : undefined;
}

export async function listVersions(db: Kysely<Database>, checkId: string): Promise<RevisionRecord[]> {
  const rows = await db
    .selectFrom('check_revisions')
    .select(COLUMNS)
    .where('check_id', '=', checkId)
    .where('version_no', 'is not', null)
    .orderBy('version_no')
    .execute();
  return rows.map(toRevision);
}

function editsJson(edits: ReadonlyMap<number, string>): string {
  return JSON.stringify(Object.fromEntries(edits));
}

/** The working copy, written as it is re-checked (one row per check). */
export async function saveDraft(
  db: Kysely<Database>,
  input: {
    checkId: string;
    userId: string;
    edits: ReadonlyMap<number, string>;
    figures: LiveFigures;
    chars: number;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('check_revisions')
    .values({
      check_id: input.checkId,
      user_id: input.userId,
      version_no: null,
      edits: editsJson(input.edits),
      figures: JSON.stringify(input.figures),
      chars: input.chars,
      created_at: input.now,
      updated_at: input.now,
    })
    .onConflict((oc) =>
      oc
        .column('check_id')
        .where('version_no', 'is', null)
        .doUpdateSet({
          edits: (eb) => eb.ref('excluded.edits'),
          figures: (eb) => eb.ref('excluded.figures'),
          chars: (eb) => eb.ref('excluded.chars'),
          updated_at: (eb) => eb.ref('excluded.updated_at'),
        }),
    )
    .execute();
}

/**
 * The draft copied into the next version number, under the check's row lock (two saves at once
 * get two numbers). Undefined when the check already has `max` versions.
 */
export async function insertVersionFromDraft(
  db: Kysely<Database>,
  checkId: string,
  draft: RevisionRecord,
  userId: string,
  max: number,
  now: Date,
): Promise<RevisionRecord | undefined> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('checks').select('id').where('id', '=', checkId).forUpdate().execute();
    const last = await tx
      .selectFrom('check_revisions')
      .select((eb) => eb.fn.max('version_no').as('n'))
      .where('check_id', '=', checkId)
      .executeTakeFirst();
    const n = Number(last?.n ?? 0);
    if (n >= max) return undefined;
    const row = await tx
      .insertInto('check_revisions')
      .values({
        check_id: checkId,
        user_id: userId,
        version_no: n + 1,
        edits: editsJson(draft.edits),
        figures: JSON.stringify(draft.figures),
        chars: draft.chars,
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRevision(row);
  });
}

/**
 * Counts one live re-check of the check today, unless the check's count reached `perOrder` or
 * the account's (all its checks today) reached `perAccount` (0: no limit). The check's limit is
 * exact (one conditional upsert); the account's is read first, so simultaneous re-checks of
 * several checks may pass it by a few. Returns what is left, or which limit was reached.
 */
export async function countRecheck(
  db: Kysely<Database>,
  input: { checkId: string; userId: string; day: string; perOrder: number; perAccount: number },
): Promise<{ ok: true; orderUsed: number; accountUsed: number } | { ok: false; limit: 'order' | 'account' }> {
  const account = await db
    .selectFrom('check_recheck_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('n'))
    .where('user_id', '=', input.userId)
    .where('day', '=', input.day)
    .executeTakeFirstOrThrow();
  const accountUsed = Number(account.n);
  if (input.perAccount > 0 && accountUsed >= input.perAccount) return { ok: false, limit: 'account' };
  const orderCap = input.perOrder > 0 ? input.perOrder : 2_000_000_000;
  const row = await db
    .insertInto('check_recheck_counts')
    .values({ check_id: input.checkId, user_id: input.userId, day: input.day, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['check_id', 'day'])
        .doUpdateSet({ count: sql`check_recheck_counts.count + 1` })
        .where('check_recheck_counts.count', '<', orderCap),
    )
    .returning('count')
    .executeTakeFirst();
  if (!row) return { ok: false, limit: 'order' };
  return { ok: true, orderUsed: row.count, accountUsed: accountUsed + 1 };
}

/** Today's re-checks of the check and of the account. */
export async function recheckUse(
  db: Kysely<Database>,
  input: { checkId: string; userId: string; day: string },
): Promise<{ orderUsed: number; accountUsed: number }> {
  const rows = await db
    .selectFrom('check_recheck_counts')
    .select(['check_id', 'count'])
    .where('user_id', '=', input.userId)
    .where('day', '=', input.day)
    .execute();
  return {
    orderUsed: rows.find((r) => r.check_id === input.checkId)?.count ?? 0,
    accountUsed: rows.reduce((s, r) => s + r.count, 0),
  };
}

/** A deleted check's revisions (its paper's edited text) go with it. */
export async function deleteRevisionsOfCheck(db: Kysely<Database>, checkId: string): Promise<void> {
  await db.deleteFrom('check_revisions').where('check_id', '=', checkId).execute();
}

/** Account deletion: every revision of the account (edited text is the paper's text). */
export async function deleteRevisionsOfUser(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('check_revisions').where('user_id', '=', userId).execute();
  await db.deleteFrom('check_recheck_counts').where('user_id', '=', userId).execute();
}

/** The account's revisions for "export my data": per check, the working copy and each version. */
export async function listRevisionsForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('check_revisions')
    .innerJoin('checks', 'checks.id', 'check_revisions.check_id')
    .select([
      'checks.check_no',
      'checks.title',
      'check_revisions.version_no',
      'check_revisions.edits',
      'check_revisions.figures',
      'check_revisions.created_at',
      'check_revisions.updated_at',
    ])
    .where('check_revisions.user_id', '=', userId)
    .orderBy('checks.created_at')
    .orderBy('check_revisions.version_no')
    .execute();
  return rows.map((r) => {
    const rev = toRevision({ ...r, chars: 0 });
    return {
      checkNo: r.check_no,
      title: r.title,
      /** null: the working copy. */
      versionNo: r.version_no,
      edits: [...rev.edits].map(([index, text]) => ({ index, text })),
      figures: rev.figures,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    };
  });
}
