import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, OrderStatus, ServiceType } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import type { OrdersRuntime } from '../orders/index.ts';
import {
  findOrderByNo,
  getOrderHistory,
  listOrderPayments,
  listOrderRefunds,
  listProofsForOperator,
  money,
  ORDER_STATUS_TEXTS,
  PAY_CHANNEL_TEXTS,
  readProofFile,
  toOrder,
  toOrderView,
  toRefundView,
} from '../orders/index.ts';
import {
  dashboardDays,
  listDeliveries,
  listFailedRefunds,
  listInvoicesFor,
  phoneOfUser,
  queueSizes,
  recentFailedJobs,
  recordInvoiceReversal,
  searchOrders,
} from './console.repo.ts';
import { TEXTS } from './console.texts.ts';

const DAY = 86_400_000;
/** Days are counted in China time (UTC+8). */
const dateOf = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Per-day orders, revenue, checks and new users for the last `days` days, the queues and failed jobs. */
export async function buildDashboard(db: Kysely<Database>, days: number, now: Date) {
  const todayStart = Date.parse(`${dateOf(now.getTime())}T00:00:00+08:00`);
  const since = new Date(todayStart - (days - 1) * DAY);
  const [counts, queues, failed] = await Promise.all([
    dashboardDays(db, since),
    queueSizes(db),
    recentFailedJobs(db, 20),
  ]);
  const list = [];
  for (let i = 0; i < days; i++) {
    const date = dateOf(since.getTime() + i * DAY);
    const paid = counts.paid.get(date);
    list.push({
      date,
      orders: counts.orders.get(date) ?? 0,
      paidOrders: paid?.n ?? 0,
      revenueFen: paid?.fen ?? 0,
      checks: counts.checks.get(date) ?? 0,
      newUsers: counts.users.get(date) ?? 0,
    });
  }
  return {
    days: list,
    queues,
    failedJobs: failed.map((j) => ({
      id: String(j.id),
      name: j.name,
      lastError: j.last_error,
      at: (j.finished_at ?? j.updated_at).toISOString(),
    })),
  };
}

export async function orderSearch(
  rt: OrdersRuntime,
  filter: {
    orderNo?: string;
    phone?: string;
    status?: OrderStatus;
    serviceType?: ServiceType;
    page: number;
    pageSize: number;
  },
) {
  const { rows, total } = await searchOrders(rt.db, filter);
  const now = rt.now();
  return {
    total,
    list: rows.map(({ phone, ...row }) => ({ ...toOrderView(toOrder(row), now), phone })),
  };
}

/** One order as an operator sees it: the user's view plus the user's phone, payments and refunds. */
export async function orderDetail(rt: OrdersRuntime, orderNo: string) {
  const order = await findOrderByNo(rt.db, orderNo);
  if (!order) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.orderNotFound);
  const [history, payments, refunds, phone] = await Promise.all([
    getOrderHistory(rt.db, order.id),
    listOrderPayments(rt.db, order.id),
    listOrderRefunds(rt.db, order.id),
    phoneOfUser(rt.db, order.userId),
  ]);
  return {
    ...toOrderView(order, rt.now()),
    userId: order.userId,
    phone,
    history,
    payments: payments.map((p) => ({
      paymentId: p.id,
      channel: p.channel,
      transactionId: p.transactionId,
      ...money(p.amountFen),
      paidAt: p.paidAt.toISOString(),
      status: p.status,
      source: p.source,
      flagged: p.flagged,
      flagReason: p.flagReason,
      refundedFen: p.refundedFen,
    })),
    refunds: refunds.map(toRefundView),
  };
}

export function proofList(rt: OrdersRuntime, status: 'pending' | 'confirmed' | 'rejected') {
  return listProofsForOperator(rt, status);
}

export function proofFile(rt: OrdersRuntime, proofId: string) {
  return readProofFile(rt, proofId);
}

/** The queue of refunds that failed (退款未能自动完成), oldest first. */
export async function failedRefundList(db: Kysely<Database>) {
  const rows = await listFailedRefunds(db);
  return rows.map((r) => ({
    refundNo: r.refund_no,
    orderNo: r.order_no,
    ...money(r.amount_fen),
    reason: r.reason,
    actor: r.actor,
    channel: r.channel,
    channelText: PAY_CHANNEL_TEXTS[r.channel as keyof typeof PAY_CHANNEL_TEXTS] ?? r.channel,
    phone: r.phone,
    lastError: r.last_error,
    attempts: r.attempts,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

// --- invoices and courier deliveries -------------------------------------------------------------

type InvoiceRow = Awaited<ReturnType<typeof listInvoicesFor>>[number];

async function toConsoleInvoices(db: Kysely<Database>, rows: InvoiceRow[]) {
  const ids = rows.map((r) => r.id);
  const items = ids.length
    ? await db
        .selectFrom('invoice_items')
        .innerJoin('orders', 'orders.id', 'invoice_items.order_id')
        .select([
          'invoice_items.invoice_id',
          'invoice_items.amount_fen',
          'orders.order_no',
          'orders.goods_name',
          'orders.refunded_fen',
          'orders.status',
        ])
        .where('invoice_items.invoice_id', 'in', ids)
        .orderBy('orders.order_no')
        .execute()
    : [];
  return rows.map((r) => ({
    invoiceId: r.id,
    invoiceNo: r.invoice_no,
    titleType: r.title_type,
    title: r.title,
    taxpayerId: r.taxpayer_id,
    email: r.email,
    phone: r.phone,
    ...money(r.amount_fen),
    status: r.status,
    createdAt: r.created_at.toISOString(),
    issuedAt: r.issued_at?.toISOString() ?? null,
    emailedAt: r.emailed_at?.toISOString() ?? null,
    reversedAt: r.reversed_at?.toISOString() ?? null,
    reversalNote: r.reversal_note,
    hasReversalPdf: r.reversal_pdf_file_key !== null,
    orders: items
      .filter((i) => i.invoice_id === r.id)
      .map((i) => ({
        orderNo: i.order_no,
        goodsName: i.goods_name,
        ...money(i.amount_fen),
        refundedFen: i.refunded_fen,
        statusText: ORDER_STATUS_TEXTS[i.status],
      })),
  }));
}

export async function invoiceList(db: Kysely<Database>, tab: 'requested' | 'issued' | 'reversal') {
  return toConsoleInvoices(db, await listInvoicesFor(db, tab));
}

/**
 * Records the 红冲 of an issued invoice one of whose orders has been refunded: when, and the
 * operator's note (the red invoice's number). @throws AppError VALIDATION when the invoice is not
 * one that needs it (not issued, no refund, or already recorded).
 */
export async function reverseInvoice(db: Kysely<Database>, invoiceId: string, note: string, at: Date) {
  if (!(await recordInvoiceReversal(db, invoiceId, note, at))) {
    await consoleInvoice(db, invoiceId); // RESOURCE_NOT_FOUND for an unknown id
    throw new AppError(ErrorCode.VALIDATION, '该发票无需红冲（未开具、订单未退款或已登记红冲）');
  }
  return consoleInvoice(db, invoiceId);
}

/** One invoice as the console lists it (after issuing it). */
export async function consoleInvoice(db: Kysely<Database>, invoiceId: string) {
  const row = await db
    .selectFrom('invoices')
    .leftJoin('users', 'users.id', 'invoices.user_id')
    .selectAll('invoices')
    .select('users.phone_number as phone')
    .where('invoices.id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '发票申请不存在');
  return (await toConsoleInvoices(db, [row]))[0]!;
}

export async function deliveryList(db: Kysely<Database>, shipped: boolean) {
  const rows = await listDeliveries(db, shipped);
  return rows.map((d) => ({
    orderNo: d.order_no,
    goodsName: d.goods_name,
    orderStatusText: ORDER_STATUS_TEXTS[d.status],
    paidAt: d.paid_at?.toISOString() ?? null,
    recipientName: d.recipient_name,
    phone: d.phone,
    province: d.province,
    city: d.city,
    district: d.district,
    detail: d.detail,
    carrier: d.carrier,
    trackingNo: d.tracking_no,
    shippedAt: d.shipped_at?.toISOString() ?? null,
    statusText: d.shipped_at ? '已发货' : '待发货',
  }));
}
