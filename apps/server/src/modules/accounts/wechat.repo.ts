import type {
  Database,
  Kysely,
  WechatLoginSessionRow,
  WechatSessionFailure,
  WechatSessionKind,
  WechatSessionStatus,
} from '@kyfw/db';

export interface QrSessionRecord {
  id: string;
  kind: WechatSessionKind;
  scene: string;
  ticket: string;
  requesterHash: string | null;
  requesterUserId: string | null;
  status: WechatSessionStatus;
  failure: WechatSessionFailure | null;
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
}

function toQrSession(row: WechatLoginSessionRow): QrSessionRecord {
  return {
    id: row.id,
    kind: row.kind,
    scene: row.scene,
    ticket: row.ticket,
    requesterHash: row.requester_hash,
    requesterUserId: row.requester_user_id,
    status: row.status,
    failure: row.failure,
    userId: row.user_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    completedAt: row.completed_at,
  };
}

export async function insertQrSession(
  db: Kysely<Database>,
  values: {
    id: string;
    kind: WechatSessionKind;
    scene: string;
    ticket: string;
    requesterHash: string | null;
    requesterUserId: string | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('wechat_login_sessions')
    .values({
      id: values.id,
      kind: values.kind,
      scene: values.scene,
      ticket: values.ticket,
      requester_hash: values.requesterHash,
      requester_user_id: values.requesterUserId,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

export async function findQrSessionById(
  db: Kysely<Database>,
  id: string,
): Promise<QrSessionRecord | undefined> {
  const row = await db
    .selectFrom('wechat_login_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toQrSession(row) : undefined;
}

/** By scene, locked for the rest of the transaction (an event and a poll never both complete it). */
export async function findQrSessionBySceneForUpdate(
  db: Kysely<Database>,
  scene: string,
): Promise<QrSessionRecord | undefined> {
  const row = await db
    .selectFrom('wechat_login_sessions')
    .selectAll()
    .where('scene', '=', scene)
    .forUpdate()
    .executeTakeFirst();
  return row ? toQrSession(row) : undefined;
}

/** pending -> done (or failed), only if still pending. */
export async function completeQrSession(
  db: Kysely<Database>,
  id: string,
  values: { status: 'done' | 'failed'; failure?: WechatSessionFailure; userId?: string | null; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('wechat_login_sessions')
    .set({
      status: values.status,
      failure: values.failure ?? null,
      user_id: values.userId ?? null,
      completed_at: values.now,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** done -> claimed: the one poll that hands out the login token (true for exactly one caller). */
export async function claimQrSession(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('wechat_login_sessions')
    .set({ status: 'claimed' })
    .where('id', '=', id)
    .where('status', '=', 'done')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Erasure: QR sessions an account asked for or was logged in by. */
export async function deleteQrSessionsOf(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .deleteFrom('wechat_login_sessions')
    .where((eb) => eb.or([eb('requester_user_id', '=', userId), eb('user_id', '=', userId)]))
    .execute();
}

export async function deleteOldQrSessions(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('wechat_login_sessions')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Records an event push; false when the key was seen before (a platform retry or a replay). */
export async function recordWechatEvent(
  db: Kysely<Database>,
  values: { dedupeKey: string; event: string; scene: string | null; now: Date },
): Promise<boolean> {
  const row = await db
    .insertInto('wechat_events')
    .values({
      dedupe_key: values.dedupeKey,
      event: values.event,
      scene: values.scene,
      received_at: values.now,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('dedupe_key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteOldWechatEvents(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('wechat_events').where('received_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
