import { COMMISSION_PRICING, type CommissionService, CSV_EXPORT_MAX_ROWS, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { chinaTime, toCsv } from '../../lib/csv.ts';
import { isUuid } from '../../lib/uuid.ts';
import { storeFile, toFileView } from './commission.files.ts';
import { noticesOf, queueNotice } from './commission.notices.ts';
import { metaOf } from './commission.pricing.ts';
import {
  type CommissionFilter,
  type CommissionRow,
  countCommissionsByStatus,
  filesOf,
  findCommission,
  listCommissions,
  phonesOf,
  updateCommission,
} from './commission.repo.ts';
import { type CommissionRuntime, NOTIFY_JOB, notFound } from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';
import { viewsOf } from './commission.view.ts';

type PageQuery = { page: number; pageSize: number };

/** The operators' side: the queue, quotes, reports and 已完成 (routes guard roles and audit). */
// --- the operators' side -------------------------------------------------------------------------

async function operatorView(rt: CommissionRuntime, row: CommissionRow) {
  const [view] = await operatorViews(rt, [row]);
  return view!;
}

async function operatorViews(rt: CommissionRuntime, rows: CommissionRow[]) {
  const views = await viewsOf(rt, rows);
  const phones = await phonesOf(
    rt.db,
    rows.map((r) => r.user_id),
  );
  return views.map((v) => {
    const form = v.form as { contactName?: string; contactPhone?: string };
    const { userId, ...rest } = v;
    // Staff see every attachment and every delivered file, also before the commission is done.
    const reports = rest.reports;
    return {
      ...rest,
      reports,
      userPhone: phones.get(userId) ?? null,
      contactName: form.contactName ?? '',
      contactPhone: form.contactPhone ?? '',
    };
  });
}

async function anyCommission(
  rt: CommissionRuntime,
  id: string,
  tx?: Kysely<Database>,
): Promise<CommissionRow> {
  const row = isUuid(id)
    ? await findCommission(tx ?? rt.db, { id }, { forUpdate: tx !== undefined })
    : undefined;
  if (!row) throw notFound();
  return row;
}

export interface ConsoleCommissionQuery {
  status?: CommissionRow['status'];
  service?: CommissionService;
  q?: string;
  from?: string;
  to?: string;
  sort?: 'due' | 'newest' | 'oldest';
}

const filterOf = (q: ConsoleCommissionQuery): CommissionFilter => ({
  status: q.status,
  service: q.service,
  search: q.q,
  from: q.from,
  to: q.to,
});

export async function consoleList(rt: CommissionRuntime, q: ConsoleCommissionQuery & PageQuery) {
  const filter = filterOf(q);
  const [{ rows, total }, counts] = await Promise.all([
    listCommissions(rt.db, filter, { offset: (q.page - 1) * q.pageSize, limit: q.pageSize }, q.sort ?? 'due'),
    countCommissionsByStatus(rt.db, filter),
  ]);
  return { total, counts, list: (await operatorViews(rt, rows)).map(({ form: _f, ...v }) => v) };
}

/** The queue under `q` as a CSV file (the columns of the table, at most CSV_EXPORT_MAX_ROWS rows). */
export async function consoleExport(rt: CommissionRuntime, q: ConsoleCommissionQuery) {
  const { rows, total } = await listCommissions(
    rt.db,
    filterOf(q),
    { offset: 0, limit: CSV_EXPORT_MAX_ROWS },
    q.sort ?? 'due',
  );
  const views = await operatorViews(rt, rows);
  const csv = toCsv<(typeof views)[number]>(
    [
      { title: '委托编号', value: (c) => c.commissionNo },
      { title: '服务', value: (c) => c.serviceName },
      { title: '标题', value: (c) => c.title },
      { title: '状态', value: (c) => c.statusText },
      { title: '金额（元）', value: (c) => c.amount },
      { title: '订单号', value: (c) => c.orderNo },
      { title: '联系人', value: (c) => c.contactName },
      { title: '联系电话', value: (c) => c.contactPhone },
      { title: '账号手机', value: (c) => c.userPhone },
      { title: '预计完成日期', value: (c) => c.dueDate },
      { title: '客户期望日期', value: (c) => c.deadline },
      { title: '提交时间', value: (c) => chinaTime(c.createdAt) },
    ],
    views,
  );
  return { csv, rows: views.length, total };
}

export async function consoleDetail(rt: CommissionRuntime, id: string) {
  const row = await anyCommission(rt, id);
  const view = await operatorView(rt, row);
  // Staff see the delivered files before the commission is marked done.
  const files = await filesOf(rt.db, [row.id]);
  const notices = (await noticesOf(rt.db, [row.id])).map((n) => ({
    kindText: TEXTS.mail.kinds[n.kind],
    email: n.email,
    status: n.status,
    statusText: TEXTS.mail.statuses[n.status],
    sentAt: n.sent_at?.toISOString() ?? null,
  }));
  return { ...view, reports: files.filter((f) => f.kind === 'report').map(toFileView), notices };
}

/**
 * An operator's quote of a 科技成果评价: a pending order of that many yuan. Also when an earlier
 * quote's order was cancelled or expired unpaid (a new order replaces it).
 */
export async function quote(rt: CommissionRuntime, id: string, input: { amount: number; note: string }) {
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const row = await anyCommission(rt, id, tx);
    const previous = row.order_id ? await rt.orders.getOrder(row.order_id, { tx }) : undefined;
    const requotable =
      row.status === 'quoting' ||
      (row.status === 'pending_payment' &&
        previous !== undefined &&
        ['cancelled', 'expired'].includes(previous.status));
    if (COMMISSION_PRICING[row.service] !== 'quote' || !requotable)
      throw new AppError(ErrorCode.CONFLICT, TEXTS.notQuotable);
    const order = await rt.orders.createOrder(
      {
        userId: row.user_id,
        serviceType: row.service,
        goodsId: row.goods_id,
        quantity: input.amount,
        serviceRef: row.id,
        meta: metaOf(row.id, row.title, row.form),
      },
      { tx },
    );
    await updateCommission(
      tx,
      row.id,
      {
        status: 'pending_payment',
        order_id: order.orderId,
        quantity: input.amount,
        quote_note: input.note || null,
        quoted_at: now,
      },
      now,
    );
    await queueNotice(tx, row, 'quoted', order.orderId, now);
  });
  return consoleDetail(rt, id);
}

/** A report file for a paid commission (stored; the client sees it once the commission is done). */
export async function uploadReport(
  rt: CommissionRuntime,
  id: string,
  staffId: string,
  file: { bytes: Uint8Array; fileName: string },
) {
  const row = await anyCommission(rt, id);
  assertNotRefunded(row);
  if (row.status !== 'processing') throw new AppError(ErrorCode.CONFLICT, TEXTS.notDeliverable);
  await storeFile(rt, { userId: row.user_id, commissionId: row.id, kind: 'report', staffId, ...file });
  return consoleDetail(rt, id);
}

/**
 * 处理中 -> 已完成 once a report is attached: the order is done and the client is told by SMS and,
 * when the form gave an e-mail, by e-mail.
 */
export async function complete(rt: CommissionRuntime, id: string) {
  const row = await anyCommission(rt, id);
  assertNotRefunded(row);
  if (row.status !== 'processing' || !row.order_id)
    throw new AppError(ErrorCode.CONFLICT, TEXTS.notCompletable);
  if (!(await filesOf(rt.db, [row.id])).some((f) => f.kind === 'report'))
    throw new AppError(ErrorCode.CONFLICT, TEXTS.noReport);
  await rt.orders.markDone(row.order_id, TEXTS.transition.done);
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const current = await anyCommission(rt, id, tx);
    assertNotRefunded(current);
    if (current.status !== 'processing') throw new AppError(ErrorCode.CONFLICT, TEXTS.notCompletable);
    await updateCommission(tx, id, { status: 'done', done_at: now }, now);
    await enqueue(tx, NOTIFY_JOB, { commissionId: id }, { dedupeKey: `commission-notify:${id}` });
    await queueNotice(tx, current, 'done', row.order_id!, now);
  });
  return consoleDetail(rt, id);
}

/** Refunded in full by an operator: the commission ended, staff actions on it are refused. */
function assertNotRefunded(row: CommissionRow): void {
  if (row.status === 'refunded') throw new AppError(ErrorCode.CONFLICT, TEXTS.refundedEnded);
}

/**
 * The refund handler of the four services (orders' onRefunded): an operator refunded everything
 * left of the commission's payment, inside the refund's transaction. A commission not yet
 * delivered (处理中) ends: 已退款, out of the queue, and the form's e-mail (if any) is told. A
 * delivered one (已完成) stays delivered; the order says 已退款.
 */
export async function endByRefund(tx: Kysely<Database>, orderId: string, now: Date): Promise<void> {
  const row = await findCommission(tx, { orderId }, { forUpdate: true });
  if (row?.status !== 'processing') return;
  await updateCommission(tx, row.id, { status: 'refunded', refunded_at: now }, now);
  await queueNotice(tx, row, 'refunded', orderId, now);
}

export async function openAnyFile(rt: CommissionRuntime, id: string, fileId: string) {
  const row = await anyCommission(rt, id);
  const file = (await filesOf(rt.db, [row.id])).find((f) => f.id === fileId);
  if (!file) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.fileNotFound);
  return { fileName: file.file_name, bytes: await rt.check.storage.get(file.storage_key) };
}
