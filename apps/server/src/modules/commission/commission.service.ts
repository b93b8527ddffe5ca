import { randomInt, randomUUID } from 'node:crypto';
import {
  COMMISSION_FILE_RULES,
  COMMISSION_PRICING,
  COMMISSION_REPORT_NAMES,
  COMMISSION_SERVICE_NAMES,
  type CommissionFormData,
  type CommissionService,
  ErrorCode,
  type estimateBody,
  formatYuan,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import type { z } from 'zod';
import { enqueue } from '../../jobs/index.ts';
import { AppError, isAppError } from '../../lib/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { SmsProvider } from '../../providers/sms/index.ts';
import type { CheckRuntime } from '../check/check.runtime.ts';
import { extractUpload } from '../check/check.service.ts';
import type { OrdersApi, OrderView } from '../orders/orders.api.ts';
import {
  attachFiles,
  type CommissionFileRow,
  type CommissionRow,
  deleteLooseAttachments,
  filesOf,
  findCommission,
  findLooseAttachments,
  insertCommission,
  insertFile,
  listCommissions,
  phonesOf,
  updateCommission,
} from './commission.repo.ts';
import { STATUS_TEXTS, TEXTS } from './commission.texts.ts';

export const ACCEPT_JOB = 'commission.accept';
export const NOTIFY_JOB = 'commission.notify';
export const PURGE_JOB = 'commission.purge';
export const SWEEP_JOB = 'commission.sweep';
/** How long an uploaded attachment waits for its form before it is deleted. */
export const LOOSE_ATTACHMENT_MS = 24 * 3600_000;

/** What the commission services need: built once by commission.module.ts. */
export interface CommissionRuntime {
  db: Kysely<Database>;
  orders: OrdersApi;
  /** The check module's runtime: its file storage and its document extraction (limits, worker). */
  check: CheckRuntime;
  /** Where the done notice goes; null: no SMS (a real provider without a template). */
  sms: { provider: SmsProvider; templateCode?: string } | null;
  logger: Logger;
  now: () => Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = () => new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.notFound);

/** 'WT' + yyyyMMddHHmmss in China time + 6 random digits. */
function newCommissionNo(now: Date): string {
  const stamp = new Date(now.getTime() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `WT${stamp}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/** Today in China time, YYYY-MM-DD. */
function chinaToday(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

// --- pricing -------------------------------------------------------------------------------------

type EstimateInput = z.output<typeof estimateBody>;

/** The goods and quantity a commission is priced by (quantity null: quoted later). */
function pricingOf(input: EstimateInput): {
  goodsId: string;
  quantity: number | null;
  explainCounts: string;
} {
  const urgent = input.urgency === 'urgent';
  switch (input.service) {
    case 'search_report':
      return {
        goodsId: urgent ? 'search_report_urgent' : 'search_report_standard',
        quantity: input.papers * input.databases || null,
        explainCounts: `${input.papers} 篇 × ${input.databases} 个数据库`,
      };
    case 'tech_search': {
      const scope = input.scope === 'global' ? 'global' : 'domestic';
      return {
        goodsId: `tech_search_${scope}${urgent ? '_urgent' : ''}`,
        quantity: 1,
        explainCounts: '1 项',
      };
    }
    case 'doc_delivery':
      return {
        goodsId: 'doc_delivery_standard',
        quantity: input.items || null,
        explainCounts: `${input.items} 篇`,
      };
    case 'tech_evaluation':
      return { goodsId: 'tech_evaluation_quote', quantity: null, explainCounts: '' };
  }
}

/** The price shown before submitting, computed from the goods as the order will be. */
export async function estimate(rt: CommissionRuntime, input: EstimateInput) {
  const { goodsId, quantity, explainCounts } = pricingOf(input);
  const goods = await rt.orders.getGoods(goodsId);
  if (!goods) throw new AppError(ErrorCode.GOODS_NOT_FOUND, TEXTS.goodsMissing);
  const pricing = COMMISSION_PRICING[input.service];
  const unitPrice = formatFenAsYuan(goods.unitPriceFen);
  const amountFen =
    pricing === 'quote' || quantity === null ? null : rt.orders.priceFor(goods, quantity).amountFen;
  const explain =
    pricing === 'quote'
      ? TEXTS.pricingQuote
      : pricing === 'fixed'
        ? TEXTS.fixed(goods.name, formatYuan(unitPrice))
        : TEXTS.perItem(explainCounts, formatYuan(unitPrice), goods.unit);
  return {
    service: input.service,
    pricing,
    goodsId: goods.id,
    goodsName: goods.name,
    unitPrice,
    unit: goods.unit,
    quantity: pricing === 'quote' ? null : quantity,
    amountFen,
    amount: amountFen === null ? null : formatFenAsYuan(amountFen),
    explain,
  };
}

function estimateInputOf(form: CommissionFormData): EstimateInput {
  const base = { service: form.service, papers: 0, databases: 0, items: 0 } as EstimateInput;
  switch (form.service) {
    case 'search_report':
      return { ...base, papers: form.papers.length, databases: form.databases.length, urgency: form.urgency };
    case 'tech_search':
      return { ...base, scope: form.scope, urgency: form.urgency };
    case 'doc_delivery':
      return { ...base, items: form.items.length };
    case 'tech_evaluation':
      return base;
  }
}

function titleOf(form: CommissionFormData): string {
  const more = (first: string, n: number) => (n > 1 ? `${first.slice(0, 60)} 等${n}篇` : first.slice(0, 100));
  switch (form.service) {
    case 'search_report':
      return more(form.papers[0]!.title, form.papers.length);
    case 'tech_search':
      return form.nameZh;
    case 'doc_delivery':
      return more(form.items[0]!, form.items.length);
    case 'tech_evaluation':
      return form.name;
  }
}

/** What the order keeps of its commission: the title and whether printed copies go by courier. */
function metaOf(id: string, title: string, form: Record<string, unknown>) {
  const print = form.delivery === 'print';
  return {
    title: title.slice(0, 100),
    commissionId: id,
    delivery: print ? 'print' : 'file',
    copies: print ? form.copies : 0,
  };
}

// --- files ---------------------------------------------------------------------------------------

/**
 * A document the client (or an operator) uploads: extension and size first, then the check's
 * extraction (sniffed, parsed in a worker with limits) proves it is a readable PDF, Word or text
 * file. A scanned PDF or one without text passes: it is a document, only not searchable.
 */
export async function checkDocument(rt: CommissionRuntime, bytes: Uint8Array, fileName: string) {
  const name = fileName.trim();
  if (bytes.length === 0 || !name) throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.missing);
  const ext = /\.[^.]+$/.exec(name)?.[0]?.toLowerCase() ?? '';
  if (!(COMMISSION_FILE_RULES.extensions as readonly string[]).includes(ext))
    throw new AppError(ErrorCode.CHECK_FILE_UNSUPPORTED, COMMISSION_FILE_RULES.unsupported);
  if (bytes.length > COMMISSION_FILE_RULES.maxBytes)
    throw new AppError(ErrorCode.CHECK_FILE_TOO_LARGE, COMMISSION_FILE_RULES.tooLarge);
  try {
    await extractUpload(rt.check, bytes, name);
  } catch (error) {
    const readable =
      isAppError(error) &&
      (error.code === ErrorCode.CHECK_FILE_SCANNED || error.code === ErrorCode.CHECK_FILE_EMPTY);
    if (!readable) {
      if (isAppError(error) && error.code === ErrorCode.CHECK_FILE_UNSUPPORTED)
        throw new AppError(ErrorCode.CHECK_FILE_UNSUPPORTED, COMMISSION_FILE_RULES.unsupported, {
          cause: error,
        });
      throw error;
    }
  }
  return { name: name.slice(-200), ext };
}

async function storeFile(
  rt: CommissionRuntime,
  input: {
    userId: string;
    commissionId: string | null;
    kind: 'attachment' | 'report';
    bytes: Uint8Array;
    fileName: string;
    staffId: string | null;
  },
  tx?: Kysely<Database>,
) {
  const { name, ext } = await checkDocument(rt, input.bytes, input.fileName);
  const id = randomUUID();
  const storageKey = `commission/${input.userId}/${id}${ext}`;
  await rt.check.storage.put(storageKey, input.bytes);
  try {
    return await insertFile(tx ?? rt.db, {
      id,
      userId: input.userId,
      commissionId: input.commissionId,
      kind: input.kind,
      fileName: name,
      storageKey,
      bytes: input.bytes.length,
      staffId: input.staffId,
      now: rt.now(),
    });
  } catch (error) {
    await rt.check.storage.delete(storageKey);
    throw error;
  }
}

export async function uploadAttachment(
  rt: CommissionRuntime,
  userId: string,
  file: { bytes: Uint8Array; fileName: string },
) {
  return toFileView(
    await storeFile(rt, { userId, commissionId: null, kind: 'attachment', staffId: null, ...file }),
  );
}

function toFileView(f: CommissionFileRow) {
  return {
    fileId: f.id,
    kind: f.kind,
    fileName: f.file_name,
    bytes: f.bytes,
    createdAt: f.created_at.toISOString(),
  };
}

// --- views ---------------------------------------------------------------------------------------

type Step = {
  key: string;
  label: string;
  at: string | null;
  state: 'done' | 'current' | 'waiting';
  note: string | null;
};

/** 已提交 → (待报价) → 待支付 → 处理中 → 已完成, from the commission's times and its order. */
function timelineOf(c: CommissionRow, order: OrderView | undefined, reports: number): Step[] {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const T = TEXTS.timeline;
  const steps: Step[] = [
    { key: 'submitted', label: T.submitted, at: iso(c.submitted_at), state: 'done', note: null },
  ];
  if (COMMISSION_PRICING[c.service] === 'quote') {
    steps.push({
      key: 'quoting',
      label: T.quoting,
      at: iso(c.quoted_at),
      state: c.quoted_at ? 'done' : c.status === 'quoting' ? 'current' : 'waiting',
      note: c.quoted_at && order ? TEXTS.quoted(formatYuan(formatFenAsYuan(order.amountFen))) : null,
    });
  }
  const closed = order && ['cancelled', 'expired'].includes(order.status);
  steps.push({
    key: 'payment',
    label: T.payment,
    at: iso(c.paid_at),
    state: c.paid_at ? 'done' : c.status === 'pending_payment' ? 'current' : 'waiting',
    note:
      c.paid_at && order
        ? TEXTS.paid(formatYuan(formatFenAsYuan(order.amountFen)))
        : closed
          ? TEXTS.orderExpired
          : null,
  });
  steps.push({
    key: 'processing',
    label: T.processing,
    at: iso(c.paid_at),
    state: c.done_at ? 'done' : c.status === 'processing' ? 'current' : 'waiting',
    note: null,
  });
  steps.push({
    key: 'done',
    label: T.done,
    at: iso(c.done_at),
    state: c.done_at ? 'done' : 'waiting',
    note: c.done_at ? TEXTS.delivered(reports) : null,
  });
  if (c.status === 'cancelled')
    steps.push({
      key: 'cancelled',
      label: T.cancelled,
      at: iso(c.cancelled_at),
      state: 'current',
      note: null,
    });
  return steps;
}

function statusTextOf(c: CommissionRow, order: OrderView | undefined): string {
  if (c.status === 'pending_payment' && order && order.status !== 'pending_payment') return order.statusText;
  return STATUS_TEXTS[c.status];
}

async function viewsOf(rt: CommissionRuntime, rows: CommissionRow[]) {
  const files = await filesOf(
    rt.db,
    rows.map((r) => r.id),
  );
  const orders = new Map<string, OrderView>();
  for (const r of rows) {
    if (!r.order_id) continue;
    const order = await rt.orders.getOrder(r.order_id);
    if (order) orders.set(r.order_id, order);
  }
  return rows.map((c) => {
    const order = c.order_id ? orders.get(c.order_id) : undefined;
    const own = files.filter((f) => f.commission_id === c.id);
    const reports = own.filter((f) => f.kind === 'report' && c.status === 'done');
    const form = c.form as { delivery?: string; copies?: number };
    return {
      commissionId: c.id,
      commissionNo: c.commission_no,
      service: c.service,
      serviceName: COMMISSION_SERVICE_NAMES[c.service],
      reportName: COMMISSION_REPORT_NAMES[c.service],
      title: c.title,
      status: c.status,
      statusText: statusTextOf(c, order),
      pricing: COMMISSION_PRICING[c.service],
      quantity: order?.quantity ?? c.quantity ?? 0,
      unit: order?.unit ?? '',
      amountFen: order?.amountFen ?? null,
      amount: order ? formatFenAsYuan(order.amountFen) : null,
      quoteNote: c.quote_note,
      orderId: order?.orderId ?? null,
      orderNo: order?.orderNo ?? null,
      canPay: c.status === 'pending_payment' && order?.canPay === true,
      canCancel: c.status === 'quoting' || (c.status === 'pending_payment' && order?.canCancel === true),
      deadline: c.deadline,
      delivery: form.delivery ?? 'file',
      copies: form.delivery === 'print' ? (form.copies ?? 1) : 0,
      timeline: timelineOf(c, order, reports.length),
      files: own.filter((f) => f.kind === 'attachment').map(toFileView),
      reports: reports.map(toFileView),
      createdAt: c.submitted_at.toISOString(),
      form: c.form,
      userId: c.user_id,
    };
  });
}

export type CommissionView = Awaited<ReturnType<typeof viewsOf>>[number];

async function viewOf(rt: CommissionRuntime, row: CommissionRow): Promise<CommissionView> {
  return (await viewsOf(rt, [row]))[0]!;
}

async function ownCommission(rt: CommissionRuntime, userId: string, id: string): Promise<CommissionRow> {
  const row = UUID.test(id) ? await findCommission(rt.db, { id, userId }) : undefined;
  if (!row) throw notFound();
  return row;
}

// --- the client's side ---------------------------------------------------------------------------

/**
 * The validated form -> a commission, its attachments attached and, when the goods price it, its
 * pending order — in one transaction; nothing is kept when anything is refused.
 */
export async function submit(rt: CommissionRuntime, userId: string, form: CommissionFormData) {
  const now = rt.now();
  const deadline = 'deadline' in form ? form.deadline : null;
  if (deadline !== null && deadline <= chinaToday(now))
    throw new AppError(ErrorCode.VALIDATION, TEXTS.deadlinePast);
  const priced = await estimate(rt, estimateInputOf(form));
  const fileIds = [...new Set(form.fileIds)];
  const title = titleOf(form);
  const row = await rt.db.transaction().execute(async (tx) => {
    const files = await findLooseAttachments(tx, userId, fileIds);
    if (files.length !== fileIds.length)
      throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.unknown);
    const id = randomUUID();
    const order =
      priced.pricing === 'quote'
        ? null
        : await rt.orders.createOrder(
            {
              userId,
              serviceType: form.service,
              goodsId: priced.goodsId,
              quantity: priced.quantity ?? 0,
              serviceRef: id,
              meta: metaOf(id, title, form as unknown as Record<string, unknown>),
            },
            { tx },
          );
    for (let attempt = 0; attempt < 5; attempt++) {
      const inserted = await insertCommission(tx, {
        id,
        commissionNo: newCommissionNo(now),
        userId,
        service: form.service,
        title,
        form: form as unknown as Record<string, unknown>,
        goodsId: priced.goodsId,
        quantity: priced.quantity,
        status: order ? 'pending_payment' : 'quoting',
        orderId: order?.orderId ?? null,
        deadline,
        now,
      });
      if (!inserted) continue;
      await attachFiles(tx, id, fileIds);
      return inserted;
    }
    throw new Error('could not draw a free commission number');
  });
  return publicView(await viewOf(rt, row));
}

/** The client's view: without the owner id; the form only in the detail. */
function publicView(v: CommissionView) {
  const { userId: _u, form: _f, ...rest } = v;
  return rest;
}

export async function listOwn(
  rt: CommissionRuntime,
  userId: string,
  q: { service?: CommissionService; page: number; pageSize: number },
) {
  const { rows, total } = await listCommissions(
    rt.db,
    { userId, service: q.service },
    { offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
  );
  return { total, list: (await viewsOf(rt, rows)).map(publicView) };
}

export async function detailOwn(rt: CommissionRuntime, userId: string, id: string) {
  const { userId: _u, ...view } = await viewOf(rt, await ownCommission(rt, userId, id));
  return view;
}

/** 待报价 -> cancelled; 待支付 -> its order cancelled (as /order/cancel does), then cancelled. */
export async function cancelOwn(rt: CommissionRuntime, userId: string, id: string) {
  const row = await ownCommission(rt, userId, id);
  const view = await viewOf(rt, row);
  if (!view.canCancel) throw new AppError(ErrorCode.CONFLICT, TEXTS.notCancellable);
  if (row.order_id) await rt.orders.cancelOrder(userId, row.order_id, { reason: TEXTS.transition.cancelled });
  const now = rt.now();
  const updated = await rt.db.transaction().execute(async (tx) => {
    const current = await findCommission(tx, { id: row.id }, { forUpdate: true });
    if (!current || !['quoting', 'pending_payment'].includes(current.status))
      throw new AppError(ErrorCode.CONFLICT, TEXTS.notCancellable);
    return updateCommission(tx, row.id, { status: 'cancelled', cancelled_at: now }, now);
  });
  return publicView(await viewOf(rt, updated));
}

/** One of the commission's files: the client's own attachments, and the reports once done. */
export async function openOwnFile(rt: CommissionRuntime, userId: string, id: string, fileId: string) {
  const row = await ownCommission(rt, userId, id);
  const file = (await filesOf(rt.db, [row.id])).find((f) => f.id === fileId);
  if (!file) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.fileNotFound);
  if (file.kind === 'report' && row.status !== 'done')
    throw new AppError(ErrorCode.CONFLICT, TEXTS.reportMissing);
  return { fileName: file.file_name, bytes: await rt.check.storage.get(file.storage_key) };
}

// --- payment and fulfilment ----------------------------------------------------------------------

/**
 * The onPaid handler of the four services: in the payment's transaction the commission becomes
 * 处理中 and a job moves the order to processing (markProcessing takes its own transaction).
 */
export async function startPaid(tx: Kysely<Database>, order: OrderView, now: Date): Promise<void> {
  const row = await findCommission(tx, { orderId: order.orderId }, { forUpdate: true });
  if (!row || row.status === 'processing' || row.status === 'done') return;
  await updateCommission(tx, row.id, { status: 'processing', paid_at: now }, now);
  await enqueue(
    tx,
    ACCEPT_JOB,
    { orderId: order.orderId },
    { dedupeKey: `commission-accept:${order.orderId}` },
  );
}

export async function acceptPaid(rt: CommissionRuntime, orderId: string): Promise<void> {
  const order = await rt.orders.getOrder(orderId);
  if (order?.status === 'paid') await rt.orders.markProcessing(orderId, TEXTS.transition.processing);
}

/** Sends the done notice once (notified_at is set first; a failed send is logged, not retried). */
export async function notifyDone(rt: CommissionRuntime, commissionId: string): Promise<void> {
  const now = rt.now();
  const claimed = await rt.db.transaction().execute(async (tx) => {
    const row = await findCommission(tx, { id: commissionId }, { forUpdate: true });
    if (row?.status !== 'done' || row.notified_at) return undefined;
    await updateCommission(tx, row.id, { notified_at: now }, now);
    return row;
  });
  if (!claimed || !rt.sms) return;
  const phone = (await phonesOf(rt.db, [claimed.user_id])).get(claimed.user_id);
  const order = claimed.order_id ? await rt.orders.getOrder(claimed.order_id) : undefined;
  if (!phone || !order) return;
  try {
    await rt.sms.provider.send({
      phone,
      purpose: TEXTS.smsPurpose,
      params: { code: order.orderNo },
      templateCode: rt.sms.templateCode,
    });
  } catch (error) {
    rt.logger.warn({ err: error, commissionId }, 'commission done SMS failed; the order shows it done');
  }
}

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
  const row = UUID.test(id)
    ? await findCommission(tx ?? rt.db, { id }, { forUpdate: tx !== undefined })
    : undefined;
  if (!row) throw notFound();
  return row;
}

export async function consoleList(
  rt: CommissionRuntime,
  q: { status?: CommissionRow['status']; service?: CommissionService; page: number; pageSize: number },
) {
  const { rows, total } = await listCommissions(
    rt.db,
    { status: q.status, service: q.service },
    { offset: (q.page - 1) * q.pageSize, limit: q.pageSize },
  );
  return { total, list: (await operatorViews(rt, rows)).map(({ form: _f, ...v }) => v) };
}

export async function consoleDetail(rt: CommissionRuntime, id: string) {
  const row = await anyCommission(rt, id);
  const view = await operatorView(rt, row);
  // Staff see the delivered files before the commission is marked done.
  const files = await filesOf(rt.db, [row.id]);
  return { ...view, reports: files.filter((f) => f.kind === 'report').map(toFileView) };
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
  if (row.status !== 'processing') throw new AppError(ErrorCode.CONFLICT, TEXTS.notDeliverable);
  await storeFile(rt, { userId: row.user_id, commissionId: row.id, kind: 'report', staffId, ...file });
  return consoleDetail(rt, id);
}

/** 处理中 -> 已完成 once a report is attached: the order is done and the client is told by SMS. */
export async function complete(rt: CommissionRuntime, id: string) {
  const row = await anyCommission(rt, id);
  if (row.status !== 'processing' || !row.order_id)
    throw new AppError(ErrorCode.CONFLICT, TEXTS.notCompletable);
  if (!(await filesOf(rt.db, [row.id])).some((f) => f.kind === 'report'))
    throw new AppError(ErrorCode.CONFLICT, TEXTS.noReport);
  await rt.orders.markDone(row.order_id, TEXTS.transition.done);
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const current = await anyCommission(rt, id, tx);
    if (current.status !== 'processing') throw new AppError(ErrorCode.CONFLICT, TEXTS.notCompletable);
    await updateCommission(tx, id, { status: 'done', done_at: now }, now);
    await enqueue(tx, NOTIFY_JOB, { commissionId: id }, { dedupeKey: `commission-notify:${id}` });
  });
  return consoleDetail(rt, id);
}

export async function openAnyFile(rt: CommissionRuntime, id: string, fileId: string) {
  const row = await anyCommission(rt, id);
  const file = (await filesOf(rt.db, [row.id])).find((f) => f.id === fileId);
  if (!file) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.fileNotFound);
  return { fileName: file.file_name, bytes: await rt.check.storage.get(file.storage_key) };
}

/** Deletes stored files of an erased account (idempotent: a missing file is no error). */
export async function purgeFiles(rt: CommissionRuntime, keys: readonly string[]): Promise<void> {
  for (const key of keys) await rt.check.storage.delete(key);
}

/** Attachments uploaded over a day ago and never sent with a form: rows and files deleted. */
export async function sweepLooseAttachments(rt: CommissionRuntime): Promise<number> {
  const keys = await deleteLooseAttachments(rt.db, new Date(rt.now().getTime() - LOOSE_ATTACHMENT_MS));
  await purgeFiles(rt, keys);
  return keys.length;
}
