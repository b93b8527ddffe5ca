import type { Database, Kysely, OfflineProofRow } from '@kyfw/db';

// --- offline proofs -----------------------------------------------------------------------------

export interface ProofRecord {
  id: string;
  orderId: string;
  userId: string;
  fileKey: string | null;
  mimeType: OfflineProofRow['mime_type'];
  sizeBytes: number;
  status: 'pending' | 'confirmed' | 'rejected';
  reviewNote: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
}

function toProof(row: OfflineProofRow): ProofRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    userId: row.user_id,
    fileKey: row.file_key,
    mimeType: row.mime_type,
    sizeBytes: row.size_bytes,
    status: row.status,
    reviewNote: row.review_note,
    reviewedAt: row.reviewed_at,
    createdAt: row.created_at,
  };
}

/** Inserts a pending proof; undefined when one is already pending for the order. */
export async function insertProof(
  db: Kysely<Database>,
  p: {
    orderId: string;
    userId: string;
    fileKey: string;
    mimeType: ProofRecord['mimeType'];
    sizeBytes: number;
    now: Date;
  },
): Promise<ProofRecord | undefined> {
  const row = await db
    .insertInto('offline_proofs')
    .values({
      order_id: p.orderId,
      user_id: p.userId,
      file_key: p.fileKey,
      mime_type: p.mimeType,
      size_bytes: p.sizeBytes,
      created_at: p.now,
    })
    .onConflict((oc) => oc.column('order_id').where('status', '=', 'pending').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function findProof(db: Kysely<Database>, id: string): Promise<ProofRecord | undefined> {
  const row = await db.selectFrom('offline_proofs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function lockProof(tx: Kysely<Database>, id: string): Promise<ProofRecord | undefined> {
  const row = await tx
    .selectFrom('offline_proofs')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function findPendingProof(
  db: Kysely<Database>,
  orderId: string,
): Promise<ProofRecord | undefined> {
  const row = await db
    .selectFrom('offline_proofs')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row ? toProof(row) : undefined;
}

export async function listOrderProofs(db: Kysely<Database>, orderId: string): Promise<ProofRecord[]> {
  const rows = await db
    .selectFrom('offline_proofs')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  return rows.map(toProof);
}

export async function listProofs(
  db: Kysely<Database>,
  status: ProofRecord['status'] | undefined,
  limit: number,
): Promise<(ProofRecord & { orderNo: string; amountFen: number })[]> {
  let query = db
    .selectFrom('offline_proofs')
    .innerJoin('orders', 'orders.id', 'offline_proofs.order_id')
    .selectAll('offline_proofs')
    .select(['orders.order_no', 'orders.amount_fen']);
  if (status) query = query.where('offline_proofs.status', '=', status);
  const rows = await query.orderBy('offline_proofs.created_at', 'desc').limit(limit).execute();
  return rows.map((row) => ({ ...toProof(row), orderNo: row.order_no, amountFen: row.amount_fen }));
}

export async function reviewProof(
  db: Kysely<Database>,
  id: string,
  status: 'confirmed' | 'rejected',
  note: string | null,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('offline_proofs')
    .set({ status, review_note: note, reviewed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
