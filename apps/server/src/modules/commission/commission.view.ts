import {
  COMMISSION_PRICING,
  COMMISSION_REPORT_NAMES,
  COMMISSION_SERVICE_NAMES,
  formatYuan,
} from '@kyfw/contracts';
import { isUuid } from '../../lib/uuid.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { OrderView } from '../orders/index.ts';
import { toFileView } from './commission.files.ts';
import { type CommissionRow, filesOf, findCommission } from './commission.repo.ts';
import { type CommissionRuntime, chinaToday, notFound } from './commission.runtime.ts';
import { STATUS_TEXTS, TEXTS } from './commission.texts.ts';

/** What a commission looks like on the wire: status, timeline, files, its order's facts. */
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
    state: c.done_at || c.status === 'refunded' ? 'done' : c.status === 'processing' ? 'current' : 'waiting',
    note: null,
  });
  steps.push({
    key: 'done',
    label: T.done,
    at: iso(c.done_at),
    state: c.done_at ? 'done' : 'waiting',
    note: c.done_at
      ? TEXTS.delivered(reports)
      : c.due_date && c.status === 'processing'
        ? TEXTS.dueOn(c.due_date)
        : null,
  });
  if (c.status === 'refunded')
    steps.push({
      key: 'refunded',
      label: T.refunded,
      at: iso(c.refunded_at),
      state: 'current',
      note: order ? TEXTS.refundedNote(formatYuan(formatFenAsYuan(order.amountFen))) : null,
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
  // Delivered, then refunded: the money went back, so it reads 已退款 as its order does.
  if (order?.status === 'refunded') return STATUS_TEXTS.refunded;
  if (c.status === 'pending_payment' && order && order.status !== 'pending_payment') return order.statusText;
  return STATUS_TEXTS[c.status];
}

export async function viewsOf(rt: CommissionRuntime, rows: CommissionRow[]) {
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
  const today = chinaToday(rt.now());
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
      dueDate: c.due_date,
      overdue: c.status === 'processing' && c.due_date !== null && c.due_date < today,
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

export async function viewOf(rt: CommissionRuntime, row: CommissionRow): Promise<CommissionView> {
  return (await viewsOf(rt, [row]))[0]!;
}

export async function ownCommission(
  rt: CommissionRuntime,
  userId: string,
  id: string,
): Promise<CommissionRow> {
  const row = isUuid(id) ? await findCommission(rt.db, { id, userId }) : undefined;
  if (!row) throw notFound();
  return row;
}
