import { type Database, type Kysely, sql } from '@kyfw/db';

/** The check rows of a whole account, for its deletion and its data export (check.account-data.ts). */

export async function listAccountCheckFiles(
  db: Kysely<Database>,
  userId: string,
): Promise<{ keys: string[]; libraryIds: string[] }> {
  const checks = await db
    .selectFrom('checks')
    .select(['id', 'file_key', 'text_key', 'library_doc_id'])
    .where('user_id', '=', userId)
    .execute();
  const reports =
    checks.length === 0
      ? []
      : await db
          .selectFrom('check_reports')
          .select(['model_key', 'pdf_key', 'marked_pdf_key', 'html_key', 'zip_key'])
          .where(
            'check_id',
            'in',
            checks.map((c) => c.id),
          )
          .execute();
  const keys = [
    ...checks.flatMap((c) => [c.file_key, c.text_key]),
    ...reports.flatMap((r) => [r.model_key, r.pdf_key, r.marked_pdf_key, r.html_key, r.zip_key]),
  ].filter((k): k is string => typeof k === 'string');
  return {
    keys,
    libraryIds: checks.map((c) => c.library_doc_id).filter((k): k is string => typeof k === 'string'),
  };
}

/** Account deletion: hide every check of the account and clear what names a person. */
export async function deidentifyAccountChecks(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('checks')
    .set({
      author: '已注销',
      file_name: 'deleted',
      file_key: null,
      text_key: null,
      hidden_at: sql`coalesce(hidden_at, ${now})`,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute();
  await db
    .updateTable('check_reports')
    .set({ model_key: null, pdf_key: null, marked_pdf_key: null, html_key: null, zip_key: null })
    .where('check_id', 'in', db.selectFrom('checks').select('id').where('user_id', '=', userId))
    .execute();
}

/** The account's checks for "export my data". */
export async function listChecksForExport(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom('checks')
    .leftJoin('check_reports', 'check_reports.check_id', 'checks.id')
    .leftJoin('check_aigc_addons', 'check_aigc_addons.check_id', 'checks.id')
    .select([
      'checks.check_no',
      'checks.order_id',
      'checks.title',
      'checks.author',
      'checks.file_name',
      'checks.chars',
      'checks.amount_fen',
      'checks.free',
      'checks.add_to_library',
      'checks.status',
      'checks.created_at',
      'checks.finished_at',
      'checks.hidden_at',
      'check_reports.report_no',
      'check_reports.ratio',
      'check_aigc_addons.goods_name as addon_goods_name',
      'check_aigc_addons.amount_fen as addon_amount_fen',
      'check_aigc_addons.free as addon_free',
      'check_aigc_addons.status as addon_status',
      'check_aigc_addons.score as addon_score',
      'check_aigc_addons.reliable as addon_reliable',
      'check_aigc_addons.failure_reason as addon_failure_reason',
      'check_aigc_addons.refunded_fen as addon_refunded_fen',
    ])
    .where('checks.user_id', '=', userId)
    .orderBy('checks.created_at')
    .execute();
  return rows.map((r) => ({
    checkNo: r.check_no,
    orderId: r.order_id,
    title: r.title,
    author: r.author,
    fileName: r.file_name,
    chars: r.chars,
    amountFen: r.amount_fen,
    free: r.free,
    addToLibrary: r.add_to_library,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    deletedAt: r.hidden_at?.toISOString() ?? null,
    reportNo: r.report_no,
    ratio: r.ratio,
    /** AIGC detection ordered with the check (migration 0042); null without it. */
    aigcAddon:
      r.addon_status === null
        ? null
        : {
            goodsName: r.addon_goods_name,
            amountFen: r.addon_amount_fen,
            free: r.addon_free,
            status: r.addon_status,
            score: r.addon_score,
            reliable: r.addon_reliable,
            failureReason: r.addon_failure_reason,
            refundedFen: r.addon_refunded_fen,
          },
  }));
}

/** Bytes of the account's uploaded papers kept in storage (the upload quota; deleted checks no longer count). */
export async function sumAccountCheckFileBytes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('checks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('file_bytes'), eb.lit(0)).as('bytes'))
    .where('user_id', '=', userId)
    .where('file_key', 'is not', null)
    .where('hidden_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}
