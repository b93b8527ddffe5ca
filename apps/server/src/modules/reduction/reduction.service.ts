import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely, ReductionKind, ReductionSource } from '@kyfw/db';
import { countChars } from '@kyfw/simcheck';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { LlmSetup } from '../../providers/llm/index.ts';
import { formatFenAsYuan } from '../../providers/payment/index.ts';
import type { CheckRuntime } from '../check/check.runtime.ts';
import type { OrdersApi, OrderView } from '../orders/index.ts';
import {
  findReduction,
  insertReduction,
  listReductionsOfUser,
  type Reduction,
  type ReductionParagraph,
  type RewriteResult,
  updateReduction,
} from './reduction.repo.ts';
import { KIND_GOODS, KIND_NAMES, REFUND_TEXTS, STATUS_TEXTS, TEXTS } from './reduction.texts.ts';
import './reduction.sandbox.ts';

export const REDUCTION_JOB = 'reduction.rewrite';
/** Shortest text worth rewriting (characters as the check counts them). */
export const MIN_CHARS = 20;
/** A paragraph shorter than this (or without a sentence mark) is a heading or a caption: not rewritten. */
const MIN_PARAGRAPH_CHARS = 15;

/** Whether a line is prose to rewrite (not a heading, a caption or a reference entry). */
/** What the reduction services and job need besides the database: built once by reduction.module.ts. */
export interface ReductionRuntime {
  db: Kysely<Database>;
  /** The orders API (goods, the order, payment, cancel). */
  orders: OrdersApi;
  /** The LLM provider (services.llm). */
  llm: LlmSetup;
  /** The check module's runtime: the similarity engine measures the rate before and after. */
  check: CheckRuntime;
  now: () => Date;
}

export function isRewritable(line: string): boolean {
  const t = line.trim();
  if (countChars(t) < MIN_PARAGRAPH_CHARS) return false;
  if (!/[。！？；，,.;!?]/u.test(t)) return false;
  if (/^\s*(?:\[\d+\]|［\d+］)/u.test(t) || /\[[JMDCRSPNZ](?:\/OL)?\]/u.test(t)) return false;
  return true;
}

/** The text's lines as paragraphs (joined again with '\n'), every rewritable one a target. */
export function paragraphsOf(text: string): ReductionParagraph[] {
  return text.split('\n').map((line, index) => ({ index, text: line, target: isRewritable(line) }));
}

async function goodsOf(rt: ReductionRuntime, kind: ReductionKind) {
  const goods = await rt.orders.getGoods(KIND_GOODS[kind]);
  if (!goods) throw new AppError(ErrorCode.GOODS_NOT_FOUND, TEXTS.goodsMissing);
  return goods;
}

export async function goodsPrice(rt: ReductionRuntime, kind: ReductionKind, chars?: number) {
  const orders = rt.orders;
  const goods = await goodsOf(rt, kind);
  const view = orders.toGoodsView(goods);
  const quote =
    chars !== undefined && chars >= goods.minQuantity && chars <= goods.maxQuantity
      ? orders.priceFor(goods, chars)
      : null;
  return {
    ...view,
    kind,
    kindName: KIND_NAMES[kind],
    chars: chars ?? null,
    amountFen: quote?.amountFen ?? null,
  };
}

/**
 * A reduction and its pending order in one transaction, after the text is checked: not empty, at
 * least MIN_CHARS, within the goods' limit, at least one paragraph to rewrite. Nothing is stored
 * when the text is refused. `paragraphs` may be given (a report's flagged passages as targets).
 */
export async function createReduction(
  rt: ReductionRuntime,
  input: {
    userId: string;
    kind: ReductionKind;
    source: ReductionSource;
    title?: string;
    text: string;
    paragraphs?: ReductionParagraph[];
    checkId?: string;
    fileName?: string;
    fileKey?: string;
    fileBytes?: number;
  },
  now: Date,
) {
  const { db } = rt;
  // Given paragraphs (a report's) index the text as it is; pasted text is normalised first.
  const text = input.paragraphs ? input.text : input.text.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n');
  const chars = countChars(text);
  if (chars === 0) throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.emptyText);
  if (chars < MIN_CHARS) throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.tooShort(MIN_CHARS));
  const orders = rt.orders;
  const goods = await goodsOf(rt, input.kind);
  if (chars > goods.maxQuantity)
    throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.tooLong(chars, goods.maxQuantity));
  const paragraphs = input.paragraphs ?? paragraphsOf(text);
  if (!paragraphs.some((p) => p.target))
    throw new AppError(ErrorCode.REDUCTION_BAD_INPUT, TEXTS.noParagraphs);
  const title =
    input.title?.trim() ||
    paragraphs
      .find((p) => p.text.trim())
      ?.text.trim()
      .slice(0, 30) ||
    TEXTS.untitled;
  const id = randomUUID();
  return db.transaction().execute(async (tx) => {
    const order = await orders.createOrder(
      {
        userId: input.userId,
        serviceType: input.kind,
        goodsId: goods.id,
        quantity: Math.max(chars, goods.minQuantity),
        serviceRef: id,
        meta: { title, kind: KIND_NAMES[input.kind] },
      },
      { tx },
    );
    const r = await insertReduction(tx, {
      id,
      userId: input.userId,
      kind: input.kind,
      source: input.source,
      title,
      checkId: input.checkId ?? null,
      fileName: input.fileName ?? null,
      fileKey: input.fileKey ?? null,
      fileBytes: input.fileKey ? (input.fileBytes ?? 0) : 0,
      originalText: text,
      chars,
      paragraphs,
      orderId: order.orderId,
      now,
    });
    return {
      reductionId: r.id,
      orderId: order.orderId,
      orderNo: order.orderNo,
      amount: order.amount,
      chars,
      paragraphs: paragraphs.filter((p) => p.target).length,
    };
  });
}

/** The onPaid hook's work, in the paying transaction: the rewrite starts, its job is queued. */
export async function startPaidReduction(tx: Kysely<Database>, r: Reduction, orderId: string, now: Date) {
  await updateReduction(tx, r.id, { status: 'rewriting', progress: Math.max(r.progress, 1) }, now);
  await enqueue(
    tx,
    REDUCTION_JOB,
    { reductionId: r.id },
    { dedupeKey: `reduction:${orderId}`, maxAttempts: 3 },
  );
}

export async function ownReduction(db: Kysely<Database>, userId: string, id: string): Promise<Reduction> {
  const r = await findReduction(db, { id, userId });
  if (!r) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.notFound);
  return r;
}

/** Where the money a reduction gave back is (null: nothing given back). */
export interface RefundView {
  amountFen: number;
  amount: string;
  /** refunding: recorded, not yet confirmed; refunded: confirmed by the platform; refunded_by_hand:
   * an operator returned it after the platform refused; failed: refused, an operator takes over. */
  state: 'refunding' | 'refunded' | 'refunded_by_hand' | 'failed';
  /** All of the price (nothing delivered), or the part that paid for paragraphs not rewritten. */
  full: boolean;
  text: string;
}

type SystemRefund = Awaited<ReturnType<OrdersApi['systemRefundsOf']>>[number];

/**
 * The refund of a reduction, read from the refund's own state (never promised before it happened):
 * a failed reduction or one with nothing rewritten was refunded in full (the order is
 * undelivered); one with paragraphs kept, the part that paid for them.
 */
export function refundViewOf(
  r: Pick<Reduction, 'status' | 'refundFen'>,
  order: Pick<OrderView, 'amountFen' | 'autoRefund' | 'autoRefundFailed' | 'status'> | undefined,
  refunds: readonly SystemRefund[],
): RefundView | null {
  if (!order) return null;
  const full = order.autoRefund && (r.status === 'failed' || r.status === 'done');
  if (!full && !(r.status === 'done' && (r.refundFen ?? 0) > 0)) return null;
  const amountFen = full ? refunds.reduce((s, x) => s + x.amountFen, 0) || order.amountFen : r.refundFen!;
  const amount = formatFenAsYuan(amountFen);
  let state: RefundView['state'];
  if (full) {
    if (order.status === 'refunded') state = order.autoRefundFailed ? 'refunded_by_hand' : 'refunded';
    else state = order.autoRefundFailed ? 'failed' : 'refunding';
  } else {
    const last = refunds.at(-1);
    if (last?.status === 'succeeded') state = last.byHand ? 'refunded_by_hand' : 'refunded';
    else if (last?.status === 'failed') state = 'failed';
    else state = 'refunding';
  }
  const texts = {
    refunding: full ? REFUND_TEXTS.fullRefunding : REFUND_TEXTS.refunding,
    refunded: full ? REFUND_TEXTS.fullRefunded : REFUND_TEXTS.refunded,
    refunded_by_hand: full ? REFUND_TEXTS.fullRefundedByHand : REFUND_TEXTS.refundedByHand,
    failed: full ? REFUND_TEXTS.fullFailed : REFUND_TEXTS.failed,
  };
  return { amountFen, amount, state, full, text: texts[state](amount) };
}

async function refundOf(rt: ReductionRuntime, r: Reduction): Promise<RefundView | null> {
  if (!r.orderId || (r.status !== 'failed' && !(r.status === 'done' && r.refundFen))) return null;
  const [order, refunds] = await Promise.all([
    rt.orders.getOrder(r.orderId),
    rt.orders.systemRefundsOf(r.orderId),
  ]);
  return refundViewOf(r, order, refunds);
}

/** A failed reduction says where its money is: 改写失败，全部 ¥x 已自动退款 only once it was. */
function failedText(refund: RefundView | null): string {
  return refund ? `${TEXTS.failed}，${refund.text}` : TEXTS.failed;
}

/** Ended by an operator's full refund (reductionRefundedHandler): 已退款, not 改写失败. */
function endedByRefund(r: Pick<Reduction, 'status' | 'failureReason'>): boolean {
  return r.status === 'failed' && r.failureReason === TEXTS.refundEnded;
}

export async function requireDone(rt: ReductionRuntime, r: Reduction): Promise<void> {
  if (endedByRefund(r)) throw new AppError(ErrorCode.REDUCTION_NOT_READY, TEXTS.refundEnded);
  if (r.status === 'failed')
    throw new AppError(ErrorCode.REDUCTION_NOT_READY, failedText(await refundOf(rt, r)));
  if (r.status !== 'done') throw new AppError(ErrorCode.REDUCTION_NOT_READY, TEXTS.notDone(r.progress));
}

/** The rewritten text: each target paragraph's accepted rewrite, every other line as it was. */
export function afterText(r: Reduction): string {
  const byIndex = new Map(r.results.map((x) => [x.index, x]));
  return r.paragraphs.map((p) => byIndex.get(p.index)?.after ?? p.text).join('\n');
}

export async function reductionViewOf(rt: ReductionRuntime, r: Reduction) {
  const targets = r.paragraphs.filter((p) => p.target).length;
  const refund = await refundOf(rt, r);
  return {
    reductionId: r.id,
    kind: r.kind,
    kindName: KIND_NAMES[r.kind],
    source: r.source,
    title: r.title,
    fileName: r.fileName,
    chars: r.chars,
    orderId: r.orderId,
    status: r.status,
    statusText: endedByRefund(r)
      ? TEXTS.refundedStatus
      : r.status === 'failed'
        ? failedText(refund)
        : STATUS_TEXTS[r.status],
    progress: r.progress,
    paragraphs: targets,
    rewritten: r.results.filter((x) => x.outcome === 'rewritten').length,
    kept: r.results.filter((x) => x.outcome === 'kept').length,
    rateBefore: r.rateBefore,
    rateAfter: r.rateAfter,
    aigcBefore: r.aigcBefore,
    aigcAfter: r.aigcAfter,
    sandbox: r.sandbox,
    refund,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** Why a target paragraph was kept: the rules its last rewrite broke (older rows: the facts it lost). */
function keptNoteOf(res: RewriteResult): string {
  if (res.problems && res.problems.length > 0) return TEXTS.rejectedNote(res.problems.map((p) => p.message));
  return TEXTS.keptNote(res.lost);
}

/** Before/after side by side, per paragraph (only targets carry a rewrite). */
export async function resultViewOf(rt: ReductionRuntime, r: Reduction) {
  const byIndex = new Map(r.results.map((x) => [x.index, x]));
  return {
    ...(await reductionViewOf(rt, r)),
    sandboxNote: r.sandbox ? TEXTS.sandboxNote : null,
    items: r.paragraphs
      .filter((p) => p.text.trim())
      .map((p) => {
        const res = byIndex.get(p.index);
        return {
          index: p.index,
          before: p.text,
          after: res?.after ?? p.text,
          outcome: res ? res.outcome : ('unchanged' as const),
          note: res?.outcome === 'kept' ? keptNoteOf(res) : null,
          problems:
            res?.outcome === 'kept'
              ? (res.problems ?? res.lost.map((l) => ({ rule: 'lost', message: l }))).map((x) => ({
                  rule: x.rule,
                  message: x.message,
                }))
              : [],
        };
      }),
  };
}

/** The rewritten items of a finished reduction (the .docx edit needs only these). */
export function rewrittenItems(r: Reduction): { before: string; after: string }[] {
  const byIndex = new Map(r.paragraphs.map((p) => [p.index, p]));
  return r.results
    .filter((x) => x.outcome === 'rewritten' && byIndex.has(x.index))
    .map((x) => ({ before: byIndex.get(x.index)!.text, after: x.after }));
}

export async function listReductions(rt: ReductionRuntime, userId: string) {
  return Promise.all((await listReductionsOfUser(rt.db, userId)).map((r) => reductionViewOf(rt, r)));
}

/** Hides a reduction; a pending order is cancelled; refused while it is being rewritten. */
export async function deleteReduction(rt: ReductionRuntime, userId: string, id: string, now: Date) {
  const { db } = rt;
  const r = await ownReduction(db, userId, id);
  if (r.status === 'rewriting')
    throw new AppError(ErrorCode.REDUCTION_IN_PROGRESS, TEXTS.deleteWhileRewriting);
  if (r.status === 'ordered' && r.orderId) {
    const order = await rt.orders.getOrder(r.orderId);
    if (order?.status === 'pending_payment')
      await rt.orders.cancelOrder(userId, r.orderId, { reason: '用户删除降重记录，订单取消' });
  }
  await updateReduction(db, id, { hiddenAt: now }, now);
}
