import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { LlmError, type LlmSetup, violationsText } from '../../providers/llm/index.ts';
import { consumeEntitlement, listEntitlements } from '../accounts/index.ts';
import type { Library } from '../check/library/library.ts';
import type { OrdersApi } from '../orders/index.ts';
import { parseReferences, type Source } from './references.ts';
import { checkedStructured, WritingRejected } from './writing.checked.ts';
import { cleanCitations, totalRemoved } from './writing.citations.ts';
import { abstractMessages, outlineMessages, titleMessages, type WritingFacts } from './writing.prompts.ts';
import {
  findWritingOfUser,
  insertWriting,
  listWritingsOfUser,
  updateWriting,
  type Writing,
} from './writing.repo.ts';
import {
  abstractSuggestion,
  type OutlineItem,
  outlineSuggestion,
  titleSuggestions,
} from './writing.schemas.ts';
import { searchLibrary } from './writing.search.ts';
import { AREA_GOODS, AREA_NAMES, STATUS_TEXTS, TEXTS } from './writing.texts.ts';
import './writing.sandbox.ts';
import type { saveOrderBody } from '@kyfw/contracts';
import type { z } from 'zod';

export const WRITING_JOB = 'writing.full-text';
/** Outline generations per writing on its free outline (regenerating is part of the same trial). */
export const FREE_OUTLINE_REGENERATIONS = 3;
/** Sources retrieved from the library for a draft. */
export const SOURCES_PER_DRAFT = 12;
/** Section revisions (/updateOrder) a finished draft includes; the add-on lifts the limit. */
export const FREE_REVISIONS = 2;

/** What the writing services need besides the database: built once by writing.module.ts. */
export interface WritingRuntime {
  db: Kysely<Database>;
  /** The orders API (goods, the full text's order, payment, cancel). */
  orders: OrdersApi;
  /** The LLM provider (services.llm). */
  llm: LlmSetup;
  /** The comparison library (the check module's), searched for references. */
  library: Library;
  now: () => Date;
}

/**
 * Runs a free LLM call; its failures become WRITING_AI_FAILED (nothing was charged or changed): an
 * endpoint that could not answer, or answers that never passed the output checks (said so).
 */
export async function askLlm<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Answers that never matched the asked shape are the model's fault, not the service's.
    if (error instanceof LlmError && error.kind === 'bad_output')
      throw new AppError(ErrorCode.WRITING_AI_FAILED, TEXTS.aiRejected(TEXTS.checkBadShape), {
        cause: error,
      });
    if (error instanceof LlmError)
      throw new AppError(ErrorCode.WRITING_AI_FAILED, TEXTS.aiFailed, { cause: error });
    if (error instanceof WritingRejected)
      throw new AppError(ErrorCode.WRITING_AI_FAILED, TEXTS.aiRejected(violationsText(error.violations)), {
        cause: error,
      });
    throw error;
  }
}

export function factsOfWriting(w: Writing): WritingFacts {
  return {
    area: w.area,
    topic: w.topic,
    title: w.title,
    discipline: w.discipline,
    degree: w.degree,
    language: w.language,
    targetWords: w.targetWords,
    requirements: w.requirements,
  };
}

async function ownWriting(
  db: Kysely<Database>,
  userId: string,
  id: string,
  forUpdate = false,
): Promise<Writing> {
  const w = await findWritingOfUser(db, userId, id, { forUpdate });
  if (!w) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.writingNotFound);
  return w;
}

function assertEditable(w: Writing): void {
  if (w.status !== 'draft') throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.locked);
}

// --- titles, drafts -------------------------------------------------------------------------------

export async function suggestTitles(
  rt: WritingRuntime,
  userId: string,
  input: { area: Writing['area']; topic: string; discipline: string },
) {
  const llm = rt.llm.provider;
  const messages = titleMessages(input);
  const value = await askLlm(() =>
    checkedStructured(
      llm,
      async () =>
        (
          await llm.structured({
            task: 'writing.title',
            userId,
            messages,
            schema: titleSuggestions,
            schemaName: 'title_suggestions',
          })
        ).value,
      (v) =>
        v.titles.flatMap((t) => [
          { text: t.title, language: 'any' as const, maxChars: 60 },
          { text: t.reason, language: 'zh' as const },
        ]),
      messages,
    ),
  );
  return { titles: value.titles, sandbox: llm.kind === 'sandbox' };
}

export async function saveDraft(
  db: Kysely<Database>,
  userId: string,
  body: z.output<typeof saveOrderBody>,
  now: Date,
): Promise<Writing> {
  const fields = {
    area: body.area,
    topic: body.topic,
    title: body.title,
    discipline: body.discipline,
    degree: body.degree,
    language: body.language,
    targetWords: body.targetWords,
    requirements: body.requirements,
    templateId: body.templateId,
  };
  if (!body.writingId) return insertWriting(db, { userId, ...fields, now });
  return db.transaction().execute(async (tx) => {
    const w = await ownWriting(tx, userId, body.writingId!, true);
    assertEditable(w);
    const { area: _area, ...changes } = fields;
    // A new title or target makes the old outline and abstract stale.
    const stale = w.title !== body.title || w.targetWords !== body.targetWords;
    await updateWriting(tx, w.id, { ...changes, ...(stale ? { outline: null, abstract: null } : {}) }, now);
    return ownWriting(tx, userId, w.id);
  });
}

// --- outline ----------------------------------------------------------------------------------------

/** Unused free outlines of the account: its AI-writing trial from the binding (0 or 1). */
export async function freeOutlinesLeft(db: Kysely<Database>, userId: string): Promise<number> {
  const entitlements = await listEntitlements(userId, { tx: db });
  return entitlements.filter((e) => e.kind === 'ai_writing_trial' && !e.usedAt).length;
}

/** Parents' budgets become the sum of their children; leaves keep theirs; flags default to '0'. */
export interface LooseOutlineItem extends Partial<Omit<OutlineItem, 'children'>> {
  children?: LooseOutlineItem[];
}

export function normalizeOutline(items: readonly LooseOutlineItem[]): OutlineItem[] {
  return items.map((item) => {
    const children = item.children && item.children.length > 0 ? normalizeOutline(item.children) : undefined;
    return {
      name: String(item.name ?? '').trim(),
      wordCount: children
        ? children.reduce((s, c) => s + c.wordCount, 0)
        : Math.max(0, Math.round(item.wordCount ?? 0)),
      form: item.form === '1' ? '1' : '0',
      formula: item.formula === '1' ? '1' : '0',
      code: item.code === '1' ? '1' : '0',
      picture: item.picture === '1' ? '1' : '0',
      ...(children ? { children } : {}),
    };
  });
}

/** Scales the leaves so the total matches the target (the model's sums are approximate). */
export function fitOutlineToTarget(items: OutlineItem[], target: number): OutlineItem[] {
  const total = items.reduce((s, c) => s + c.wordCount, 0);
  if (total <= 0) {
    // No budgets from the model: share the target evenly among the leaves.
    const count = (list: readonly OutlineItem[]): number =>
      list.reduce((n, i) => n + (i.children ? count(i.children) : 1), 0);
    const each = Math.max(50, Math.round(target / Math.max(1, count(items)) / 10) * 10);
    const even = (list: readonly OutlineItem[]): OutlineItem[] =>
      list.map((i) => (i.children ? { ...i, children: even(i.children) } : { ...i, wordCount: each }));
    return normalizeOutline(even(items));
  }
  const factor = target / total;
  const scale = (list: readonly OutlineItem[]): OutlineItem[] =>
    list.map((i) =>
      i.children
        ? { ...i, children: scale(i.children) }
        : { ...i, wordCount: Math.max(50, Math.round((i.wordCount * factor) / 10) * 10) },
    );
  return normalizeOutline(scale(items));
}

export function outlineTotal(items: readonly OutlineItem[]): number {
  return items.reduce((s, c) => s + c.wordCount, 0);
}

/** Items no outline of ours holds: the model's own abstract or reference chapter (code adds those). */
const NOT_A_CHAPTER = /^(?:摘\s*要|参考文献|Abstract|References|Bibliography)$/i;

function withoutNonChapters<T extends { name: string; children?: T[] }>(items: readonly T[]): T[] {
  return items
    .filter((i) => !NOT_A_CHAPTER.test(i.name.trim()))
    .map((i) => (i.children ? { ...i, children: withoutNonChapters(i.children) } : i));
}

/**
 * The model's outline for a writing, checked (every name passes the output checks; answers that do
 * not are regenerated, bounded) and fitted to the target.
 * @throws WritingRejected / LlmError
 */
export async function proposeOutline(
  llm: LlmSetup['provider'],
  w: Writing,
  userId: string,
  orderNo: string | null,
  signal?: AbortSignal,
): Promise<OutlineItem[]> {
  const messages = outlineMessages(factsOfWriting(w));
  const names = (items: readonly { name: string; children?: readonly { name: string }[] }[]): string[] =>
    items.flatMap((i) => [i.name, ...names((i.children ?? []) as { name: string }[])]);
  const value = await checkedStructured(
    llm,
    async () =>
      (
        await llm.structured({
          task: 'writing.outline',
          userId,
          orderNo,
          messages,
          schema: outlineSuggestion,
          schemaName: 'outline',
          ...(signal ? { signal } : {}),
        })
      ).value,
    (v) =>
      names(v.chapters).map((text) => ({
        text,
        language: w.language === 'en' ? ('any' as const) : ('zh' as const),
        maxChars: 40,
      })),
    messages,
  );
  // Headings are printed as they are: nothing citation-like stays in them either.
  const plainNames = <T extends { name: string; children?: T[] }>(items: readonly T[]): T[] =>
    items.map((i) => ({
      ...i,
      name: cleanCitations(i.name, { sources: [], language: w.language }).text || i.name,
      ...(i.children ? { children: plainNames(i.children) } : {}),
    }));
  const chapters = plainNames(withoutNonChapters(value.chapters));
  return fitOutlineToTarget(normalizeOutline(chapters), w.targetWords);
}

/**
 * Generates the outline of a draft on the account's free outline (the binding trial): the first
 * generation uses it, up to FREE_OUTLINE_REGENERATIONS generations of the same writing are then
 * free. Without a free outline: WRITING_OUTLINE_PAYMENT_REQUIRED (the full-text order then writes
 * the outline itself). The LLM is asked before anything is used, so a failure costs nothing.
 */
export async function generateOutline(rt: WritingRuntime, userId: string, writingId: string, now: Date) {
  const { db } = rt;
  const w = await ownWriting(db, userId, writingId);
  assertEditable(w);
  if (!w.title) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.titleRequired);
  const onTrial = w.freeOutline && w.outlinesGenerated < FREE_OUTLINE_REGENERATIONS;
  if (!onTrial && (await freeOutlinesLeft(db, userId)) === 0) {
    throw new AppError(ErrorCode.WRITING_OUTLINE_PAYMENT_REQUIRED, TEXTS.freeOutlineUsed);
  }
  const outline = await askLlm(() => proposeOutline(rt.llm.provider, w, userId, null));
  return db.transaction().execute(async (tx) => {
    const locked = await ownWriting(tx, userId, writingId, true);
    assertEditable(locked);
    if (!(locked.freeOutline && locked.outlinesGenerated < FREE_OUTLINE_REGENERATIONS)) {
      const used = await consumeEntitlement(userId, 'ai_writing_trial', { tx, usedFor: writingId, now });
      if (!used) throw new AppError(ErrorCode.WRITING_OUTLINE_PAYMENT_REQUIRED, TEXTS.freeOutlineUsed);
    }
    await updateWriting(
      tx,
      writingId,
      { outline, abstract: null, freeOutline: true, outlinesGenerated: locked.outlinesGenerated + 1 },
      now,
    );
    return { outline, freeOutlinesLeft: await freeOutlinesLeft(tx, userId) };
  });
}

/** The student's edited outline: parents recomputed from children; the total within ±10% of the target. */
export async function saveOutline(
  db: Kysely<Database>,
  userId: string,
  writingId: string,
  items: OutlineItem[],
  now: Date,
) {
  const outline = normalizeOutline(items);
  return db.transaction().execute(async (tx) => {
    const w = await ownWriting(tx, userId, writingId, true);
    assertEditable(w);
    const total = outlineTotal(outline);
    if (Math.abs(total - w.targetWords) > w.targetWords * 0.1) {
      throw new AppError(ErrorCode.VALIDATION, TEXTS.outlineBudgetMismatch(total, w.targetWords));
    }
    await updateWriting(tx, writingId, { outline }, now);
    return { outline };
  });
}

export async function generateAbstract(rt: WritingRuntime, userId: string, writingId: string, now: Date) {
  const { db } = rt;
  const w = await ownWriting(db, userId, writingId);
  if (!w.outline) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.outlineRequired);
  const llm = rt.llm.provider;
  const messages = abstractMessages(factsOfWriting(w), w.outline!);
  const zhLanguage = w.language === 'en' ? ('any' as const) : ('zh' as const);
  const value = await askLlm(() =>
    checkedStructured(
      llm,
      async () => {
        const answer = (
          await llm.structured({
            task: 'writing.abstract',
            userId,
            orderNo: null,
            messages,
            schema: abstractSuggestion,
            schemaName: 'abstract',
          })
        ).value;
        // An abstract cites nothing: citation-like text is removed (a reference list regenerates).
        const zh = cleanCitations(answer.zh, { sources: [], language: 'zh' });
        const en = cleanCitations(answer.en, { sources: [], language: 'en' });
        if (zh.regenerate || en.regenerate) return { ...answer, zh: '', en: '' };
        // Keywords are printed as they are: one that holds a citation is dropped.
        const plain = (list: string[]) =>
          list.filter((k) => totalRemoved(cleanCitations(k, { sources: [], language: 'zh' }).removed) === 0);
        return {
          ...answer,
          zh: zh.text,
          en: en.text,
          keywordsZh: plain(answer.keywordsZh),
          keywordsEn: plain(answer.keywordsEn),
        };
      },
      (v) => [
        { text: v.zh, language: zhLanguage, maxChars: 1200 },
        { text: v.en, language: 'any' as const, maxChars: 3000 },
        ...v.keywordsZh.map((k) => ({ text: k, language: zhLanguage, maxChars: 20 })),
        ...v.keywordsEn.map((k) => ({ text: k, language: 'any' as const, maxChars: 60 })),
      ],
      messages,
    ),
  );
  await updateWriting(db, writingId, { abstract: value }, now);
  return value;
}

// --- references ---------------------------------------------------------------------------------------

/**
 * Parses pasted references; with a writing, the readable ones become its supplied sources (the
 * draft may cite them beside the library's records).
 */
export async function analyseReferences(
  db: Kysely<Database>,
  userId: string,
  text: string,
  writingId: string | undefined,
  now: Date,
) {
  const parsed = parseReferences(text);
  if (writingId) {
    await db.transaction().execute(async (tx) => {
      const w = await ownWriting(tx, userId, writingId, true);
      assertEditable(w);
      const supplied = parsed.flatMap((p) =>
        p.fields ? [{ ...p.fields, origin: 'supplied' as const }] : [],
      );
      const library = w.sources.filter((s) => s.origin === 'library');
      await updateWriting(
        tx,
        writingId,
        { sources: [...supplied, ...library].map((s, i) => ({ ...s, n: i + 1 })) },
        now,
      );
    });
  }
  return parsed;
}

/** The sources of a draft: the student's supplied ones first, then the library's records on the title. */
export async function retrieveSources(rt: WritingRuntime, w: Writing): Promise<Source[]> {
  const supplied = w.sources.filter((s) => s.origin === 'supplied');
  const found = await searchLibrary(rt, {
    keyword: `${w.title ?? ''} ${w.topic}`,
    discipline: w.discipline,
    limit: SOURCES_PER_DRAFT,
  });
  const seen = new Set(supplied.map((s) => s.title));
  const library = found.list.filter((s) => !seen.has(s.title)).map(({ discipline: _discipline, ...s }) => s);
  return [...supplied, ...library].map((s, i) => ({ ...s, n: i + 1 }));
}

// --- order, progress, list ----------------------------------------------------------------------------

/**
 * Orders the full text: the draft's sources are retrieved and numbered now, and a pending order of
 * the area's goods is created with the writing in one transaction. Payment goes through
 * /aiWriting/freeCheckQrPayCode; the onPaid hook queues the job.
 */
export async function submitOrder(rt: WritingRuntime, userId: string, writingId: string, now: Date) {
  const { db } = rt;
  const w = await ownWriting(db, userId, writingId);
  if (w.orderId) {
    const order = await rt.orders.getOrder(w.orderId);
    if (order && order.status !== 'cancelled' && order.status !== 'expired')
      return { writingId, orderId: w.orderId, orderNo: order.orderNo, amount: order.amount };
  }
  if (!w.title) throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.titleRequired);
  const sources = await retrieveSources(rt, w);
  return db.transaction().execute(async (tx) => {
    const locked = await ownWriting(tx, userId, writingId, true);
    if (locked.status !== 'draft' && locked.status !== 'ordered')
      throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.orderExists);
    const order = await rt.orders.createOrder(
      {
        userId,
        serviceType: 'ai_writing',
        goodsId: AREA_GOODS[w.area],
        quantity: 1,
        serviceRef: writingId,
        meta: { title: w.title, area: AREA_NAMES[w.area] },
      },
      { tx },
    );
    await updateWriting(tx, writingId, { orderId: order.orderId, status: 'ordered', sources }, now);
    return { writingId, orderId: order.orderId, orderNo: order.orderNo, amount: order.amount };
  });
}

/** The onPaid hook's work, in the paying transaction: the writing starts, its job is queued. */
export async function startPaidWriting(tx: Kysely<Database>, writing: Writing, orderId: string, now: Date) {
  await updateWriting(tx, writing.id, { status: 'writing', progress: Math.max(writing.progress, 1) }, now);
  await enqueue(
    tx,
    WRITING_JOB,
    { writingId: writing.id },
    { dedupeKey: `writing:${orderId}`, maxAttempts: 3 },
  );
}

/** Where the money of a failed draft is: from its order's refund (never assumed). */
export type RefundState = 'refunding' | 'refunded' | 'refused' | 'refundedByHand';

/** The order's side of a failed draft: its status text (正在自动退款 / 已自动退款 / …) and refund state. */
export interface FailedOrderInfo {
  statusText: string;
  refundState: RefundState | null;
}

/** What the orders module says about a failed draft's money, read from its order and refund. */
export async function failedOrderInfo(rt: Pick<WritingRuntime, 'orders'>, w: Writing) {
  if (w.status !== 'failed' || !w.orderId) return undefined;
  const order = await rt.orders.getOrder(w.orderId);
  if (!order?.autoRefund) return undefined;
  const refundState: RefundState =
    order.status === 'refunded'
      ? order.autoRefundFailed
        ? 'refundedByHand'
        : 'refunded'
      : order.autoRefundFailed
        ? 'refused'
        : 'refunding';
  return { statusText: order.statusText, refundState } satisfies FailedOrderInfo;
}

/** Ended by an operator's full refund before the full text was written (writingRefundedHandler). */
export function endedByRefund(w: Pick<Writing, 'status' | 'failureReason'>): boolean {
  return w.status === 'failed' && w.failureReason === TEXTS.refundEnded;
}

/** The writing view with what its order says about a failure's refund (toWritingView). */
export async function writingView(rt: Pick<WritingRuntime, 'orders'>, w: Writing, sandbox: boolean) {
  return toWritingView(w, sandbox, await failedOrderInfo(rt, w));
}

/**
 * The writing as the API shows it. A failed draft's status text comes from its order (the orders
 * module's 正在自动退款 / 已自动退款 / 退款未能自动完成…), so 已自动退款 shows only once the refund
 * really succeeded.
 */
export function toWritingView(w: Writing, sandbox: boolean, failed?: FailedOrderInfo) {
  const sections = w.sections;
  return {
    writingId: w.id,
    area: w.area,
    areaName: AREA_NAMES[w.area],
    topic: w.topic,
    title: w.title,
    discipline: w.discipline,
    degree: w.degree,
    language: w.language,
    targetWords: w.targetWords,
    requirements: w.requirements,
    templateId: w.templateId,
    outline: w.outline,
    abstract: w.abstract,
    sources: w.sources,
    orderId: w.orderId,
    status: w.status,
    statusText: endedByRefund(w)
      ? TEXTS.refundedStatus
      : w.status === 'failed'
        ? (failed?.statusText ?? w.failureReason ?? STATUS_TEXTS.failed)
        : STATUS_TEXTS[w.status],
    refundState: failed?.refundState ?? null,
    progress: w.progress,
    sectionsWritten: sections.length,
    wordsWritten: sections.reduce((s, x) => s + x.text.length, 0),
    removedCitations: sections.reduce((s, x) => s + x.removedCitations, 0),
    freeOutline: w.freeOutline,
    revisionsLeft: w.unlimitedRevisions ? null : Math.max(0, FREE_REVISIONS - w.revisionsUsed),
    unlimitedRevisions: w.unlimitedRevisions,
    revisionsOrderId: w.unlimitedRevisions ? null : w.revisionsOrderId,
    revision: w.revision
      ? {
          path: w.revision.path,
          instruction: w.revision.instruction,
          state: w.revision.state,
          message: w.revision.message,
          queueAhead: null,
        }
      : null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    finishedAt: w.finishedAt?.toISOString() ?? null,
    sandbox,
  };
}

export async function getWriting(db: Kysely<Database>, userId: string, writingId: string) {
  return ownWriting(db, userId, writingId);
}

export async function listWritings(db: Kysely<Database>, userId: string) {
  return listWritingsOfUser(db, userId);
}

/** Hides a writing; a pending order is cancelled; refused while the text is being written. */
export async function deleteWriting(rt: WritingRuntime, userId: string, writingId: string, now: Date) {
  const { db } = rt;
  const w = await ownWriting(db, userId, writingId);
  if (w.status === 'writing') throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.deleteWhileWriting);
  if (w.status === 'ordered' && w.orderId) {
    const order = await rt.orders.getOrder(w.orderId);
    if (order?.status === 'pending_payment')
      await rt.orders.cancelOrder(userId, w.orderId, { reason: '用户删除论文草稿，订单取消' });
  }
  await updateWriting(db, writingId, { hiddenAt: now }, now);
}
