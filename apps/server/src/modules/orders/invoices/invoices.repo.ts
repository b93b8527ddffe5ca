import { type Database, type InvoiceIssueMode, type InvoiceRow, type Kysely, sql } from '@kyfw/db';

/** SQL of invoices and their items. */

export interface InvoiceRecord {
  id: string;
  invoiceNo: string;
  userId: string;
  titleType: 'personal' | 'company';
  title: string;
  taxpayerId: string | null;
  email: string | null;
  amountFen: number;
  status: 'requested' | 'issued';
  pdfFileKey: string | null;
  issuedAt: Date | null;
  emailedAt: Date | null;
  /** When an operator recorded the 红冲 (red-letter reversal); null: none. */
  reversedAt: Date | null;
  /** The red invoice's PDF (红字发票) finance attached to the 红冲; null: none. */
  reversalPdfFileKey: string | null;
  createdAt: Date;
}

function toInvoice(row: InvoiceRow): InvoiceRecord {
  return {
    id: row.id,
    invoiceNo: row.invoice_no,
    userId: row.user_id,
    titleType: row.title_type,
    title: row.title,
    taxpayerId: row.taxpayer_id,
    email: row.email,
    amountFen: row.amount_fen,
    status: row.status,
    pdfFileKey: row.pdf_file_key,
    issuedAt: row.issued_at,
    emailedAt: row.emailed_at,
    reversedAt: row.reversed_at,
    reversalPdfFileKey: row.reversal_pdf_file_key,
    createdAt: row.created_at,
  };
}

export interface InvoiceItemRecord {
  orderId: string;
  orderNo: string;
  goodsName: string;
  quantity: number;
  unit: string;
  amountFen: number;
}

/**
 * The user's orders among `orderIds`, locked until the end of `tx` (ascending id: the lock order of
 * the README), so an automatic refund cannot slip in between the invoice's check and its insert.
 */
export async function lockUserOrdersForInvoice(
  tx: Kysely<Database>,
  userId: string,
  orderIds: readonly string[],
) {
  if (orderIds.length === 0) return [];
  const rows = await tx
    .selectFrom('orders')
    .select(['id', 'order_no', 'undelivered_at'])
    .where('user_id', '=', userId)
    .where('id', 'in', orderIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => ({ orderId: r.id, orderNo: r.order_no, undelivered: r.undelivered_at !== null }));
}

/**
 * The user's orders that may be invoiced: paid (not fully refunded), whose service was not given
 * up with an automatic refund (undelivered), and on no invoice yet; each for what the user keeps
 * paying — its amount less what is refunded and what is being refunded (a refund of the payment
 * the platform has accepted but not finished: WeChat Pay finishes refunds later).
 */
export async function listInvoiceableOrders(
  db: Kysely<Database>,
  userId: string,
  orderIds?: readonly string[],
) {
  let query = db
    .selectFrom('orders')
    .leftJoin('invoice_items', 'invoice_items.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.order_no',
      'orders.goods_name',
      'orders.quantity',
      'orders.unit',
      'orders.amount_fen',
      'orders.refunded_fen',
      'orders.paid_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('refunds')
        .innerJoin('payments', 'payments.id', 'refunds.payment_id')
        .select(sql<number>`coalesce(sum(refunds.amount_fen), 0)::int`.as('n'))
        .whereRef('refunds.order_id', '=', 'orders.id')
        .where('payments.status', '=', 'accepted')
        .where('refunds.status', 'in', ['pending', 'processing'])
        .as('refunding_fen'),
    )
    .where('orders.user_id', '=', userId)
    .where('orders.status', 'in', ['paid', 'processing', 'done'])
    .where('orders.undelivered_at', 'is', null)
    .where('invoice_items.order_id', 'is', null)
    .where(sql<boolean>`orders.amount_fen > orders.refunded_fen`);
  if (orderIds) query = query.where('orders.id', 'in', orderIds);
  const rows = await query.orderBy('orders.paid_at', 'desc').execute();
  return rows
    .map((r) => ({
      orderId: r.id,
      orderNo: r.order_no,
      goodsName: r.goods_name,
      quantity: r.quantity,
      unit: r.unit,
      amountFen: r.amount_fen - r.refunded_fen - Number(r.refunding_fen ?? 0),
      paidAt: r.paid_at,
    }))
    .filter((o) => o.amountFen > 0);
}

/** Which of these orders already are on an invoice. */
export async function findInvoicedOrderIds(
  db: Kysely<Database>,
  orderIds: readonly string[],
): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('invoice_items')
    .select('order_id')
    .where('order_id', 'in', orderIds)
    .execute();
  return rows.map((r) => r.order_id);
}

export async function insertInvoice(
  db: Kysely<Database>,
  i: {
    invoiceNo: string;
    userId: string;
    titleType: 'personal' | 'company';
    title: string;
    taxpayerId: string | null;
    email: string;
    amountFen: number;
    items: { orderId: string; amountFen: number }[];
    now: Date;
  },
): Promise<InvoiceRecord> {
  const row = await db
    .insertInto('invoices')
    .values({
      invoice_no: i.invoiceNo,
      user_id: i.userId,
      title_type: i.titleType,
      title: i.title,
      taxpayer_id: i.taxpayerId,
      email: i.email,
      amount_fen: i.amountFen,
      created_at: i.now,
      updated_at: i.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('invoice_items')
    .values(
      i.items.map((item) => ({ invoice_id: row.id, order_id: item.orderId, amount_fen: item.amountFen })),
    )
    .execute();
  return toInvoice(row);
}

export async function findInvoice(db: Kysely<Database>, id: string): Promise<InvoiceRecord | undefined> {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toInvoice(row) : undefined;
}

export async function findUserInvoice(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<InvoiceRecord | undefined> {
  const row = await db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toInvoice(row) : undefined;
}

export async function listUserInvoices(
  db: Kysely<Database>,
  userId: string,
  options: { offset: number; limit: number },
): Promise<{ list: InvoiceRecord[]; total: number }> {
  const base = db.selectFrom('invoices').where('user_id', '=', userId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(options.offset)
      .limit(options.limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toInvoice), total: Number(count.n) };
}

export async function listInvoiceItems(db: Kysely<Database>, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return new Map<string, InvoiceItemRecord[]>();
  const rows = await db
    .selectFrom('invoice_items')
    .innerJoin('orders', 'orders.id', 'invoice_items.order_id')
    .select([
      'invoice_items.invoice_id',
      'invoice_items.order_id',
      'invoice_items.amount_fen',
      'orders.order_no',
      'orders.goods_name',
      'orders.quantity',
      'orders.unit',
    ])
    .where('invoice_items.invoice_id', 'in', invoiceIds)
    .orderBy('orders.order_no')
    .execute();
  const map = new Map<string, InvoiceItemRecord[]>();
  for (const r of rows) {
    const list = map.get(r.invoice_id) ?? [];
    list.push({
      orderId: r.order_id,
      orderNo: r.order_no,
      goodsName: r.goods_name,
      quantity: r.quantity,
      unit: r.unit,
      amountFen: r.amount_fen,
    });
    map.set(r.invoice_id, list);
  }
  return map;
}

export async function findInvoiceOfOrder(db: Kysely<Database>, orderId: string) {
  return db
    .selectFrom('invoice_items')
    .innerJoin('invoices', 'invoices.id', 'invoice_items.invoice_id')
    .select(['invoices.id', 'invoices.invoice_no', 'invoices.status'])
    .where('invoice_items.order_id', '=', orderId)
    .executeTakeFirst();
}

export async function markInvoiceIssued(
  db: Kysely<Database>,
  id: string,
  pdfFileKey: string,
  issuedAt: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('invoices')
    .set({ status: 'issued', pdf_file_key: pdfFileKey, issued_at: issuedAt, updated_at: issuedAt })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Attaches the red invoice's PDF to a recorded 红冲, once; false when not reversed or already attached. */
export async function markReversalPdf(
  db: Kysely<Database>,
  id: string,
  fileKey: string,
  at: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('invoices')
    .set({ reversal_pdf_file_key: fileKey, updated_at: at })
    .where('id', '=', id)
    .where('reversed_at', 'is not', null)
    .where('reversal_pdf_file_key', 'is', null)
    .where('deidentified_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records that the invoice's e-mail was sent (once). */
export async function markInvoiceEmailed(db: Kysely<Database>, id: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('invoices')
    .set({ emailed_at: at, updated_at: at })
    .where('id', '=', id)
    .where('emailed_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function listRequestedInvoices(db: Kysely<Database>, limit: number): Promise<InvoiceRecord[]> {
  const rows = await db
    .selectFrom('invoices')
    .selectAll()
    .where('status', '=', 'requested')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toInvoice);
}

// --- how invoices are issued (migration 0062) -------------------------------------------------------

/** The default when nobody chose yet: 企业 titles wait for finance to check 抬头/税号. */
export const DEFAULT_ISSUE_MODE: InvoiceIssueMode = 'company_review';

/** The console's choice of how invoices are issued, with who chose it and when (null: the default). */
export async function findIssueSetting(
  db: Kysely<Database>,
): Promise<{ issueMode: InvoiceIssueMode; updatedBy: string | null; updatedAt: Date | null }> {
  const row = await db.selectFrom('invoice_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  return row
    ? { issueMode: row.issue_mode, updatedBy: row.updated_by, updatedAt: row.updated_at }
    : { issueMode: DEFAULT_ISSUE_MODE, updatedBy: null, updatedAt: null };
}

export async function saveIssueMode(
  db: Kysely<Database>,
  issueMode: InvoiceIssueMode,
  by: string,
  now: Date,
): Promise<void> {
  const values = { issue_mode: issueMode, updated_by: by, updated_at: now };
  await db
    .insertInto('invoice_settings')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}
