import type { Database, Kysely, OrderStatus, ServiceType } from '@kyfw/db';
import { sql } from 'kysely';

/** Read-only queries of the console over other modules' tables (dashboard counts, order search). */

const day = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;

type DayCounts = Map<string, number>;

async function countByDay(
  db: Kysely<Database>,
  table: 'orders' | 'checks' | 'users',
  since: Date,
): Promise<DayCounts> {
  const rows = await db
    .selectFrom(table)
    .select([day('created_at').as('d'), (eb) => eb.fn.countAll<string>().as('n')])
    .where('created_at', '>=', since)
    .groupBy('d')
    .execute();
  return new Map(rows.map((r) => [r.d, Number(r.n)]));
}

export async function dashboardDays(db: Kysely<Database>, since: Date) {
  const [orders, checks, users, payments] = await Promise.all([
    countByDay(db, 'orders', since),
    countByDay(db, 'checks', since),
    countByDay(db, 'users', since),
    db
      .selectFrom('payments')
      .select([
        day('paid_at').as('d'),
        (eb) => eb.fn.countAll<string>().as('n'),
        (eb) => eb.fn.sum<string>('amount_fen').as('fen'),
      ])
      .where('paid_at', '>=', since)
      .where('status', '=', 'accepted')
      .groupBy('d')
      .execute(),
  ]);
  const paid = new Map(payments.map((p) => [p.d, { n: Number(p.n), fen: Number(p.fen) }]));
  return { orders, checks, users, paid };
}

export async function queueSizes(db: Kysely<Database>) {
  const count = (n: { n: string } | undefined) => Number(n?.n ?? 0);
  const [proofs, flagged, refunds, invoices, jobs] = await Promise.all([
    db
      .selectFrom('offline_proofs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirst(),
    db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('flagged', '=', true)
      .executeTakeFirst(),
    db
      .selectFrom('refunds')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'failed')
      .executeTakeFirst(),
    db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'requested')
      .executeTakeFirst(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirst(),
  ]);
  return {
    pendingProofs: count(proofs),
    flaggedPayments: count(flagged),
    failedRefunds: count(refunds),
    invoicesToIssue: count(invoices),
    queuedJobs: count(jobs),
  };
}

export function recentFailedJobs(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'name', 'last_error', 'finished_at', 'updated_at'])
    .where('status', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
}

export interface OrderSearch {
  orderNo?: string;
  phone?: string;
  status?: OrderStatus;
  serviceType?: ServiceType;
  page: number;
  pageSize: number;
}

export async function searchOrders(db: Kysely<Database>, filter: OrderSearch) {
  let query = db.selectFrom('orders').leftJoin('users', 'users.id', 'orders.user_id');
  if (filter.orderNo)
    query = query.where('orders.order_no', 'like', `${filter.orderNo.replace(/[%_\\]/g, '\\$&')}%`);
  if (filter.phone) query = query.where('users.phone_number', '=', filter.phone);
  if (filter.status) query = query.where('orders.status', '=', filter.status);
  if (filter.serviceType) query = query.where('orders.service_type', '=', filter.serviceType);
  const [rows, count] = await Promise.all([
    query
      .selectAll('orders')
      .select('users.phone_number as phone')
      .select(
        sql<boolean>`exists (select 1 from offline_proofs p where p.order_id = orders.id and p.status = 'pending')`.as(
          'offline_pending',
        ),
      )
      .orderBy('orders.created_at', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function phoneOfUser(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirst();
  return row?.phone_number ?? null;
}

/** The refunds that failed (退款未能自动完成): oldest first, with their order, channel and phone. */
export function listFailedRefunds(db: Kysely<Database>) {
  return db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    .innerJoin('payments', 'payments.id', 'refunds.payment_id')
    .leftJoin('users', 'users.id', 'orders.user_id')
    .select([
      'refunds.refund_no',
      'refunds.amount_fen',
      'refunds.reason',
      'refunds.actor',
      'refunds.last_error',
      'refunds.attempts',
      'refunds.created_at',
      'refunds.updated_at',
      'orders.order_no',
      'payments.channel',
      'users.phone_number as phone',
    ])
    .where('refunds.status', '=', 'failed')
    .orderBy('refunds.created_at')
    .limit(500)
    .execute();
}

/** An invoice one of whose orders has been refunded (in part or in full) since. */
const refunded = sql<boolean>`exists (select 1 from invoice_items i join orders o on o.id = i.order_id
    where i.invoice_id = invoices.id and o.refunded_fen > 0)`;

/**
 * Records the 红冲 of an issued invoice with a refunded order, not recorded before; false when the
 * invoice is not one that needs it.
 */
export async function recordInvoiceReversal(
  db: Kysely<Database>,
  invoiceId: string,
  note: string,
  at: Date,
): Promise<boolean> {
  const updated = await db
    .updateTable('invoices')
    .set({ reversed_at: at, reversal_note: note, updated_at: at })
    .where('id', '=', invoiceId)
    .where('status', '=', 'issued')
    .where('reversed_at', 'is', null)
    .where(refunded)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Invoices of one console tab: `requested` (to issue, oldest first), `issued` (newest first), or
 * `reversal` — issued invoices one of whose orders has since been refunded (in part or in full):
 * they need a red-letter reversal (红冲).
 */
export function listInvoicesFor(db: Kysely<Database>, tab: 'requested' | 'issued' | 'reversal') {
  let query = db
    .selectFrom('invoices')
    .leftJoin('users', 'users.id', 'invoices.user_id')
    .selectAll('invoices')
    .select('users.phone_number as phone');
  if (tab === 'requested')
    query = query.where('invoices.status', '=', 'requested').orderBy('invoices.created_at');
  else query = query.where('invoices.status', '=', 'issued').orderBy('invoices.issued_at', 'desc');
  if (tab === 'reversal') query = query.where(refunded).where('invoices.reversed_at', 'is', null);
  return query.where('invoices.deidentified_at', 'is', null).limit(200).execute();
}

/** Orders with a courier delivery: waiting to ship (oldest paid first) or shipped (newest first). */
export function listDeliveries(db: Kysely<Database>, shipped: boolean) {
  let query = db
    .selectFrom('order_deliveries')
    .innerJoin('orders', 'orders.id', 'order_deliveries.order_id')
    .selectAll('order_deliveries')
    .select(['orders.order_no', 'orders.goods_name', 'orders.status', 'orders.paid_at'])
    .where('order_deliveries.deidentified_at', 'is', null);
  query = shipped
    ? query
        .where('order_deliveries.shipped_at', 'is not', null)
        .orderBy('order_deliveries.shipped_at', 'desc')
    : query
        .where('order_deliveries.shipped_at', 'is', null)
        .where('orders.status', 'in', ['paid', 'processing', 'done'])
        .orderBy('orders.paid_at');
  return query.limit(200).execute();
}
