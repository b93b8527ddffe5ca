import { randomInt } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { InvoiceIssueMode } from '@kyfw/db';
import { enqueue } from '../../../jobs/queue.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';
import { TEXTS } from '../orders.texts.ts';
import { money } from '../orders.view.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import {
  findInvoice,
  findInvoicedOrderIds,
  findIssueSetting,
  findUserInvoice,
  type InvoiceRecord,
  insertInvoice,
  listInvoiceableOrders,
  listInvoiceItems,
  listUserInvoices,
  lockUserOrdersForInvoice,
  markInvoiceEmailed,
  markInvoiceIssued,
  markReversalPdf,
} from './invoices.repo.ts';

export interface CreateInvoiceInput {
  orderIds: string[];
  titleType: 'personal' | 'company';
  title: string;
  /** Already validated (GB 32100-2015); required for a company title. */
  taxpayerId: string | null;
  email: string;
}

/** 'FP' + yyyyMMdd (China) + 8 random digits. */
function generateInvoiceNo(now: Date): string {
  const day = new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
  return `FP${day}${String(randomInt(100_000_000)).padStart(8, '0')}`;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}

/** Orders the user can still put on an invoice. */
export async function listInvoiceable(rt: OrdersRuntime, userId: string) {
  return (await listInvoiceableOrders(rt.db, userId)).map((o) => ({
    orderId: o.orderId,
    orderNo: o.orderNo,
    goodsName: o.goodsName,
    ...money(o.amountFen),
    paidAt: o.paidAt?.toISOString() ?? null,
  }));
}

/**
 * Requests one invoice over some of the user's own paid orders; each order is invoiced at most
 * once (enforced by a unique key, so two racing requests cannot both take an order). Issued at once
 * or left for finance's review (发票 › 待开具) as the console's 开票方式 says (issuesAtOnce).
 * @throws AppError INVOICE_ORDER_INVALID (not own / not paid / refunded; an order whose payment is
 *   refunded automatically because its service could not be delivered says so), INVOICE_ORDER_INVOICED
 */
/**
 * Whether a request of this title is issued the moment it is made (decision 0031): 'immediate'
 * always, 'review' never (finance checks 抬头/税号 first), 'company_review' (the default) for
 * personal titles only.
 */
export function issuesAtOnce(mode: InvoiceIssueMode, titleType: 'personal' | 'company'): boolean {
  return mode === 'immediate' || (mode === 'company_review' && titleType === 'personal');
}

export async function createInvoice(rt: OrdersRuntime, userId: string, input: CreateInvoiceInput) {
  const orderIds = [...new Set(input.orderIds)];
  let invoice: InvoiceRecord;
  try {
    invoice = await rt.db.transaction().execute(async (tx) => {
      const ownOrders = await lockUserOrdersForInvoice(tx, userId, orderIds);
      const orders = await listInvoiceableOrders(tx, userId, orderIds);
      if (orders.length !== orderIds.length) {
        // Money given back automatically (the service could not be delivered): never invoiced.
        const refunding = ownOrders.find((o) => o.undelivered);
        if (refunding)
          throw new AppError(ErrorCode.INVOICE_ORDER_INVALID, TEXTS.invoiceOrderRefunding(refunding.orderNo));
        // Only say "already invoiced" about the user's own orders.
        const own = new Set(ownOrders.map((o) => o.orderId));
        const invoiced = await findInvoicedOrderIds(tx, orderIds);
        if (invoiced.some((id) => own.has(id))) throw new AppError(ErrorCode.INVOICE_ORDER_INVOICED);
        throw new AppError(ErrorCode.INVOICE_ORDER_INVALID);
      }
      const now = rt.now();
      return insertInvoice(tx, {
        invoiceNo: generateInvoiceNo(now),
        userId,
        titleType: input.titleType,
        title: input.title,
        taxpayerId: input.taxpayerId,
        email: input.email,
        amountFen: orders.reduce((sum, o) => sum + o.amountFen, 0),
        items: orders.map((o) => ({ orderId: o.orderId, amountFen: o.amountFen })),
        now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.INVOICE_ORDER_INVOICED);
    throw error;
  }
  if (issuesAtOnce((await findIssueSetting(rt.db)).issueMode, input.titleType))
    await issueInvoice(rt, invoice.id);
  const view = await getInvoiceView(rt, (await findInvoice(rt.db, invoice.id))!);
  return view;
}

/** The invoice, or RESOURCE_NOT_FOUND 发票申请不存在. */
async function invoiceOrFail(rt: OrdersRuntime, invoiceId: string): Promise<InvoiceRecord> {
  const invoice = await findInvoice(rt.db, invoiceId);
  if (!invoice) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '发票申请不存在');
  return invoice;
}

/** Renders and stores the PDF and marks the invoice issued (operator API, or automatically). */
export async function issueInvoice(rt: OrdersRuntime, invoiceId: string): Promise<InvoiceRecord> {
  const invoice = await invoiceOrFail(rt, invoiceId);
  if (invoice.status === 'issued') return invoice;
  const items = (await listInvoiceItems(rt.db, [invoice.id])).get(invoice.id) ?? [];
  const issuedAt = rt.now();
  const pdf = await renderInvoicePdf({
    invoiceNo: invoice.invoiceNo,
    issuedAt,
    titleType: invoice.titleType,
    title: invoice.title,
    taxpayerId: invoice.taxpayerId,
    email: invoice.email,
    items: items.map((i) => ({
      orderNo: i.orderNo,
      name: i.goodsName,
      quantity: i.quantity,
      unit: i.unit,
      amountFen: i.amountFen,
    })),
    amountFen: invoice.amountFen,
    seller: { name: rt.config.invoice.sellerName, taxpayerId: rt.config.invoice.sellerTaxpayerId },
    isSample: rt.config.invoice.isSample,
  });
  return storeIssuedInvoice(rt, invoice, pdf, issuedAt);
}

/**
 * An operator attaches the real invoice (the PDF the tax system issued) instead of generating one:
 * stored, the invoice issued and e-mailed like a generated one; the user downloads it.
 * @throws AppError RESOURCE_NOT_FOUND / CONFLICT (already issued) / VALIDATION (not a PDF)
 */
export async function issueInvoiceWithPdf(
  rt: OrdersRuntime,
  invoiceId: string,
  pdf: Buffer,
): Promise<InvoiceRecord> {
  const invoice = await invoiceOrFail(rt, invoiceId);
  if (invoice.status === 'issued') throw new AppError(ErrorCode.CONFLICT, TEXTS.invoiceAlreadyIssued);
  assertPdf(pdf);
  const stored = await storeIssuedInvoice(rt, invoice, pdf, rt.now());
  if (stored.status !== 'issued' || stored.issuedAt === null) {
    throw new AppError(ErrorCode.CONFLICT, TEXTS.invoiceAlreadyIssued);
  }
  return stored;
}

/** An attached invoice file must be a PDF (its first bytes; the size is capped by the upload). */
function assertPdf(pdf: Buffer): void {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw new AppError(ErrorCode.VALIDATION, TEXTS.invoicePdfRequired);
  }
}

/**
 * Finance attaches the red invoice (红字发票) the tax system issued for a recorded 红冲: stored like
 * the invoice's PDF, downloadable by the user from the invoice, deleted with the account. Once.
 * @throws AppError RESOURCE_NOT_FOUND / VALIDATION (not a PDF, or no 红冲 recorded) / CONFLICT (attached)
 */
export async function attachReversalPdf(rt: OrdersRuntime, invoiceId: string, pdf: Buffer) {
  const invoice = await invoiceOrFail(rt, invoiceId);
  assertPdf(pdf);
  if (!invoice.reversedAt) throw new AppError(ErrorCode.VALIDATION, TEXTS.reversalNotRecorded);
  if (invoice.reversalPdfFileKey) throw new AppError(ErrorCode.CONFLICT, TEXTS.reversalPdfAttached);
  const at = rt.now();
  const key = await rt.files.save('invoices', 'pdf', pdf, at);
  if (!(await markReversalPdf(rt.db, invoice.id, key, at))) {
    await rt.files.remove(key);
    throw new AppError(ErrorCode.CONFLICT, TEXTS.reversalPdfAttached);
  }
  rt.logger.info({ invoiceNo: invoice.invoiceNo }, 'red invoice attached');
  return (await findInvoice(rt.db, invoice.id))!;
}

/** Stores the PDF and marks the invoice issued with its e-mail queued (one transaction). */
async function storeIssuedInvoice(
  rt: OrdersRuntime,
  invoice: InvoiceRecord,
  pdf: Buffer,
  issuedAt: Date,
): Promise<InvoiceRecord> {
  const key = await rt.files.save('invoices', 'pdf', pdf, issuedAt);
  // Issued and its e-mail queued together: a crash never leaves an issued invoice unsent.
  const issued = await rt.db.transaction().execute(async (tx) => {
    if (!(await markInvoiceIssued(tx, invoice.id, key, issuedAt))) return false;
    await enqueue(tx, INVOICE_MAIL_JOB, { invoiceId: invoice.id }, { maxAttempts: INVOICE_MAIL_ATTEMPTS });
    return true;
  });
  if (!issued) await rt.files.remove(key);
  else rt.logger.info({ invoiceNo: invoice.invoiceNo }, 'invoice issued');
  return (await findInvoice(rt.db, invoice.id))!;
}

/** The job that e-mails an issued invoice (orders.jobs.ts). */
export const INVOICE_MAIL_JOB = 'orders.invoice-mail';
/** A mail server that is down is retried with the job queue's back-off, this many times in all. */
export const INVOICE_MAIL_ATTEMPTS = 8;

/**
 * E-mails an issued invoice's PDF to the address on it, once (idempotent: a sent one is skipped).
 * Nothing to do for an invoice not issued, already sent, or de-identified with its account.
 * @throws MailError when the mail server refuses or cannot be reached (the job retries)
 */
export async function sendInvoiceMail(rt: OrdersRuntime, invoiceId: string): Promise<'sent' | 'skipped'> {
  const invoice = await findInvoice(rt.db, invoiceId);
  if (invoice?.status !== 'issued' || invoice.emailedAt || !invoice.email || !invoice.pdfFileKey)
    return 'skipped';
  const pdf = await rt.files.read(invoice.pdfFileKey);
  await rt.mail.send({
    to: invoice.email,
    subject: TEXTS.invoiceMailSubject(invoice.invoiceNo),
    text: TEXTS.invoiceMailText({
      title: invoice.title,
      invoiceNo: invoice.invoiceNo,
      amount: money(invoice.amountFen).amount,
    }),
    attachments: [
      { filename: TEXTS.invoiceFileName(invoice.invoiceNo), content: pdf, contentType: 'application/pdf' },
    ],
  });
  await markInvoiceEmailed(rt.db, invoice.id, rt.now());
  rt.logger.info({ invoiceNo: invoice.invoiceNo }, 'invoice e-mailed');
  return 'sent';
}

async function getInvoiceView(rt: OrdersRuntime, invoice: InvoiceRecord) {
  const items = (await listInvoiceItems(rt.db, [invoice.id])).get(invoice.id) ?? [];
  return toInvoiceView(invoice, items);
}

function toInvoiceView(
  invoice: InvoiceRecord,
  items: { orderId: string; orderNo: string; goodsName: string; amountFen: number }[],
) {
  return {
    invoiceId: invoice.id,
    invoiceNo: invoice.invoiceNo,
    titleType: invoice.titleType,
    title: invoice.title,
    taxpayerId: invoice.taxpayerId,
    email: invoice.email,
    ...money(invoice.amountFen),
    status: invoice.status,
    statusText: invoice.reversedAt ? '已红冲' : invoice.status === 'issued' ? '已开具' : '待财务审核开具',
    /** Whether the red invoice's PDF (红字发票) can be downloaded. */
    hasReversalPdf: invoice.reversalPdfFileKey !== null,
    createdAt: invoice.createdAt.toISOString(),
    issuedAt: invoice.issuedAt?.toISOString() ?? null,
    /** When the PDF was e-mailed to `email` (null: not yet). */
    emailedAt: invoice.emailedAt?.toISOString() ?? null,
    orders: items.map((i) => ({
      orderId: i.orderId,
      orderNo: i.orderNo,
      goodsName: i.goodsName,
      ...money(i.amountFen),
    })),
  };
}

export async function listInvoices(rt: OrdersRuntime, userId: string, page: number, pageSize: number) {
  const { list, total } = await listUserInvoices(rt.db, userId, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const items = await listInvoiceItems(
    rt.db,
    list.map((i) => i.id),
  );
  return { list: list.map((i) => toInvoiceView(i, items.get(i.id) ?? [])), total };
}

/**
 * The issued PDF of the user's own invoice, or with `red` its red invoice (红字发票).
 * @throws RESOURCE_NOT_FOUND / INVOICE_NOT_ISSUED
 */
export async function downloadInvoice(rt: OrdersRuntime, userId: string, invoiceId: string, red = false) {
  const invoice = /^[0-9a-f-]{36}$/i.test(invoiceId)
    ? await findUserInvoice(rt.db, userId, invoiceId)
    : undefined;
  if (!invoice) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, '发票不存在');
  if (red) {
    if (!invoice.reversalPdfFileKey)
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.reversalPdfMissing);
    return {
      fileName: TEXTS.reversalFileName(invoice.invoiceNo),
      data: await rt.files.read(invoice.reversalPdfFileKey),
    };
  }
  if (invoice.status !== 'issued' || !invoice.pdfFileKey) throw new AppError(ErrorCode.INVOICE_NOT_ISSUED);
  return {
    fileName: TEXTS.invoiceFileName(invoice.invoiceNo),
    data: await rt.files.read(invoice.pdfFileKey),
  };
}
