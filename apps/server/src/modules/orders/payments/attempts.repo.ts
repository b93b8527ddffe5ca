import { type Database, type Kysely, type PaymentAttemptRow, sql } from '@kyfw/db';

// --- payment attempts (QR codes at the platforms) -----------------------------------------------

export interface AttemptRecord {
  id: string;
  orderId: string;
  channel: 'wx' | 'ali';
  outTradeNo: string;
  amountFen: number;
  codeUrl: string | null;
  status: 'open' | 'closed' | 'paid';
  expireAt: Date;
  lastQueriedAt: Date | null;
  createdAt: Date;
}

function toAttempt(row: PaymentAttemptRow): AttemptRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    channel: row.channel,
    outTradeNo: row.out_trade_no,
    amountFen: row.amount_fen,
    codeUrl: row.code_url,
    status: row.status,
    expireAt: row.expire_at,
    lastQueriedAt: row.last_queried_at,
    createdAt: row.created_at,
  };
}

export async function listAttempts(db: Kysely<Database>, orderId: string): Promise<AttemptRecord[]> {
  const rows = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  return rows.map(toAttempt);
}

export async function findAttemptByOutTradeNo(
  db: Kysely<Database>,
  channel: 'wx' | 'ali',
  outTradeNo: string,
): Promise<AttemptRecord | undefined> {
  const row = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('channel', '=', channel)
    .where('out_trade_no', '=', outTradeNo)
    .executeTakeFirst();
  return row ? toAttempt(row) : undefined;
}

/**
 * Inserts an open attempt; when one is already open for the order and channel (a concurrent
 * request), returns that one instead.
 */
export async function insertOrGetOpenAttempt(
  db: Kysely<Database>,
  a: {
    orderId: string;
    channel: 'wx' | 'ali';
    outTradeNo: string;
    amountFen: number;
    expireAt: Date;
    now: Date;
  },
): Promise<AttemptRecord> {
  const inserted = await db
    .insertInto('payment_attempts')
    .values({
      order_id: a.orderId,
      channel: a.channel,
      out_trade_no: a.outTradeNo,
      amount_fen: a.amountFen,
      expire_at: a.expireAt,
      created_at: a.now,
      updated_at: a.now,
    })
    .onConflict((oc) => oc.columns(['order_id', 'channel']).where('status', '=', 'open').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return toAttempt(inserted);
  const open = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('order_id', '=', a.orderId)
    .where('channel', '=', a.channel)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return toAttempt(open);
}

export async function setAttemptCode(
  db: Kysely<Database>,
  id: string,
  codeUrl: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('payment_attempts')
    .set({ code_url: codeUrl, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function closeAttempt(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db
    .updateTable('payment_attempts')
    .set({ status: 'closed', closed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .execute();
}

export async function markAttemptPaid(db: Kysely<Database>, id: string, now: Date): Promise<void> {
  await db
    .updateTable('payment_attempts')
    .set({ status: 'paid', closed_at: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Claims the right to query the platform for this attempt now: true when nobody queried it within
 * `minIntervalMs` (the status poll and the reconciliation job share this, across processes).
 */
export async function claimAttemptQuery(
  db: Kysely<Database>,
  id: string,
  now: Date,
  minIntervalMs: number,
): Promise<boolean> {
  const r = await db
    .updateTable('payment_attempts')
    .set({ last_queried_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where((eb) =>
      eb.or([
        eb('last_queried_at', 'is', null),
        eb('last_queried_at', '<=', new Date(now.getTime() - minIntervalMs)),
      ]),
    )
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Open attempts created before `createdBefore`, least recently queried first. */
export async function listOpenAttempts(
  db: Kysely<Database>,
  createdBefore: Date,
  limit: number,
): Promise<AttemptRecord[]> {
  const rows = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('status', '=', 'open')
    .where('created_at', '<=', createdBefore)
    .orderBy(sql`last_queried_at nulls first`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toAttempt);
}

export async function countAttempts(
  db: Kysely<Database>,
  orderId: string,
  channel: 'wx' | 'ali',
): Promise<number> {
  const r = await db
    .selectFrom('payment_attempts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('order_id', '=', orderId)
    .where('channel', '=', channel)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
