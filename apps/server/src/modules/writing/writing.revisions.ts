import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { z } from 'zod';
import { defineJob, enqueue, type JobContext } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { registerSandboxTemplate, SANDBOX_MARK, sandboxText } from '../../providers/llm/index.ts';
import { type PaidHandler, serviceUndeliverable } from '../orders/index.ts';
import { WritingRejected, writeCheckedSection } from './writing.checked.ts';
import { totalRemoved } from './writing.citations.ts';
import { auditDraft } from './writing.docx.ts';
import { figureForSection } from './writing.figure.ts';
import { FIGURE_ASK, revisionMessages } from './writing.prompts.ts';
import {
  findWriting,
  findWritingByOrder,
  findWritingOfUser,
  updateWriting,
  type Writing,
} from './writing.repo.ts';
import { plainPrompt, sandboxFigureData } from './writing.sandbox.ts';
import type { OutlineItem } from './writing.schemas.ts';
import { FREE_REVISIONS, factsOfWriting, type WritingRuntime } from './writing.service.ts';
import { AREA_NAMES, TEXTS } from './writing.texts.ts';

/**
 * Revising one section of a finished draft (/aiWriting/updateOrder) and the unlimited-revisions
 * add-on (/aiWriting/unlimitedRevisions/payment, goods ai_writing_revisions). A finished draft
 * includes FREE_REVISIONS section revisions; the add-on lifts the limit. One revision at a time:
 * a durable job rewrites the section (citations validated as in the full text) and leaves the other
 * sections untouched; a revision that fails for good is not counted.
 */

export const REVISION_JOB = 'writing.revise-section';
export const REVISIONS_GOODS = 'ai_writing_revisions';

/** Free revisions left, or null when the add-on makes them unlimited. */
function revisionsLeft(w: Writing): number | null {
  return w.unlimitedRevisions ? null : Math.max(0, FREE_REVISIONS - w.revisionsUsed);
}

async function ownWriting(db: Kysely<Database>, userId: string, id: string): Promise<Writing> {
  const w = await findWritingOfUser(db, userId, id, { forUpdate: db.isTransaction });
  if (!w) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.writingNotFound);
  return w;
}

/**
 * Starts the revision of one written section: counted against the free revisions (unless the
 * add-on is paid) and queued in one transaction.
 */
export async function requestRevision(
  rt: WritingRuntime,
  userId: string,
  input: { writingId: string; path: string; instruction: string },
  now: Date,
): Promise<Writing> {
  return rt.db.transaction().execute(async (tx) => {
    const w = await ownWriting(tx, userId, input.writingId);
    if (w.status !== 'done') throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.revisionNotDone);
    if (!w.sections.some((s) => s.path === input.path))
      throw new AppError(ErrorCode.VALIDATION, TEXTS.revisionSectionUnknown);
    if (w.revision?.state === 'running')
      throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.revisionBusy(w.revision.path));
    const left = revisionsLeft(w);
    if (left === 0)
      throw new AppError(ErrorCode.WRITING_REVISIONS_USED_UP, TEXTS.revisionsUsedUp(FREE_REVISIONS));
    const free = left !== null;
    // Each revision's job has a key of its own, by which the view finds its place in the queue.
    const queueKey = `revision:${w.id}:${randomUUID()}`;
    await updateWriting(
      tx,
      w.id,
      {
        revision: {
          path: input.path,
          instruction: input.instruction,
          free,
          state: 'running',
          message: null,
          queueKey,
        },
        revisionsUsed: w.revisionsUsed + 1,
      },
      now,
    );
    await enqueue(
      tx,
      REVISION_JOB,
      { writingId: w.id, path: input.path },
      { maxAttempts: 3, dedupeKey: queueKey },
    );
    return (await findWriting(tx, w.id))!;
  });
}

/** The add-on's pending order (created once per draft); refused once it is paid. */
export async function orderUnlimitedRevisions(rt: WritingRuntime, userId: string, writingId: string) {
  const check = (w: Writing) => {
    if (w.status !== 'done') throw new AppError(ErrorCode.WRITING_NOT_READY, TEXTS.revisionNotDone);
    if (w.unlimitedRevisions) throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.revisionsAlreadyUnlimited);
  };
  // The orders API reads on its own connection: look at the earlier order before the transaction.
  const w = await ownWriting(rt.db, userId, writingId);
  check(w);
  if (w.revisionsOrderId) {
    const order = await rt.orders.getOrder(w.revisionsOrderId);
    if (order?.status === 'pending_payment')
      return { writingId, orderId: order.orderId, orderNo: order.orderNo, amount: order.amount };
  }
  return rt.db.transaction().execute(async (tx) => {
    const locked = await ownWriting(tx, userId, writingId);
    check(locked);
    if (locked.revisionsOrderId !== w.revisionsOrderId)
      throw new AppError(ErrorCode.WRITING_LOCKED, TEXTS.revisionsOrderChanged);
    const order = await rt.orders.createOrder(
      {
        userId,
        serviceType: 'ai_writing',
        goodsId: REVISIONS_GOODS,
        quantity: 1,
        serviceRef: writingId,
        meta: { title: locked.title ?? locked.topic, area: AREA_NAMES[locked.area] },
      },
      { tx },
    );
    await updateWriting(tx, writingId, { revisionsOrderId: order.orderId }, rt.now());
    return { writingId, orderId: order.orderId, orderNo: order.orderNo, amount: order.amount };
  });
}

/** onPaid for the add-on: the draft's revisions become unlimited; a deleted draft is refunded. */
export const revisionsPaidHandler: PaidHandler = async ({ tx, order }) => {
  const w = await findWritingByOrder(tx, order.orderId, { forUpdate: true, column: 'revisions_order_id' });
  if (!w || w.hiddenAt) return serviceUndeliverable(TEXTS.revisionsDraftDeleted, '草稿已删除');
  await updateWriting(tx, w.id, { unlimitedRevisions: true }, new Date());
  // Delivered the moment it is paid: a job marks the order done (outside the paying transaction).
  await enqueue(
    tx,
    REVISIONS_DELIVERED_JOB,
    { orderId: order.orderId },
    { dedupeKey: `revisions:${order.orderId}` },
  );
};

export const REVISIONS_DELIVERED_JOB = 'writing.revisions-delivered';

export const revisionsDeliveredJob = defineJob({
  name: REVISIONS_DELIVERED_JOB,
  maxAttempts: 5,
  payloadSchema: z.object({ orderId: z.string().min(1) }),
  handler: async (ctx) => {
    const orders = ctx.services.writing.orders;
    const order = await orders.getOrder(ctx.payload.orderId);
    if (order?.status !== 'paid') return { skipped: order?.status ?? 'missing' };
    await orders.markDone(ctx.payload.orderId);
    return { done: true };
  },
});

/** The outline item at a path ('2', '1.2', '1.2.3'). */
function itemAt(outline: readonly OutlineItem[], path: string): OutlineItem | undefined {
  let list: readonly OutlineItem[] | undefined = outline;
  let item: OutlineItem | undefined;
  for (const part of path.split('.')) {
    item = list?.[Number(part) - 1];
    list = item?.children;
  }
  return item;
}

const revisePayload = z.object({ writingId: z.string().min(1), path: z.string().min(1) });

/** Rewrites the section; a failure for good gives the revision back and leaves the old text. */
async function reviseSection(ctx: JobContext<z.infer<typeof revisePayload>>) {
  const { db } = ctx;
  const w = await findWriting(db, ctx.payload.writingId);
  const revision = w?.revision;
  if (!w || !revision || revision.state !== 'running' || revision.path !== ctx.payload.path)
    return { skipped: 'no revision' };
  const section = w.sections.find((s) => s.path === revision.path);
  const item = w.outline ? itemAt(w.outline, revision.path) : undefined;
  if (!section || !item) return { skipped: 'no section' };
  const rt = ctx.services.writing;
  try {
    const order = w.orderId ? await rt.orders.getOrder(w.orderId) : undefined;
    await ctx.reportProgress(10, `正在修改 ${section.path} ${section.heading}`);
    const facts = factsOfWriting(w);
    const before = w.sections.slice(
      0,
      w.sections.findIndex((s) => s.path === section.path),
    );
    // The same checks as the full text (writing.checked.ts): hygiene, length, citations by construction.
    const outcome = await writeCheckedSection({
      llm: rt.llm.provider,
      task: 'writing.revise',
      messages: revisionMessages(
        facts,
        {
          heading: section.heading,
          path: section.path,
          wordCount: item.wordCount,
          item,
          outline: w.outline!,
          before,
        },
        w.sources,
        section.text,
        revision.instruction,
      ),
      wordCount: item.wordCount,
      language: w.language,
      sources: w.sources,
      userId: w.userId,
      orderNo: order?.orderNo ?? null,
      signal: ctx.signal,
    });
    if (!outcome.ok) throw new WritingRejected(outcome.violations);
    const checked = { text: outcome.text, removed: totalRemoved(outcome.removed) };
    // The chart follows the new text: redrawn from its numbers, or the placeholder.
    const figure = await figureForSection(rt.llm.provider, {
      facts,
      section: { path: section.path, heading: section.heading, item },
      text: checked.text,
      userId: w.userId,
      orderNo: order?.orderNo ?? null,
      signal: ctx.signal,
    });
    const sections = w.sections.map((s) =>
      s.path === revision.path
        ? {
            ...s,
            text: checked.text,
            removedCitations: checked.removed,
            ...(item.picture === '1' ? { figure } : {}),
          }
        : s,
    );
    // The final audit again, on the document with the new section: else the old text stays.
    const audit = await auditDraft({ ...w, sections }, rt.llm.provider.kind === 'sandbox');
    if (audit.failing.length > 0 || !audit.docx.passed)
      throw new Error(TEXTS.finalAuditFailed(audit.docx.findings.map((f) => f.match)));
    await db.transaction().execute(async (tx) => {
      const current = await findWriting(tx, w.id, { forUpdate: true });
      if (!current?.revision || current.revision.path !== revision.path) return;
      const next = sections.find((s) => s.path === revision.path)!;
      const revised = current.sections.map((s) => (s.path === revision.path ? next : s));
      await updateWriting(tx, w.id, { sections: revised, revision: null }, new Date());
    });
    return { revised: revision.path };
  } catch (error) {
    if (ctx.signal.aborted || ctx.job.attempts < ctx.job.maxAttempts) throw error;
    ctx.logger.error({ err: error, writingId: w.id }, 'section revision failed for good; not counted');
    await db.transaction().execute(async (tx) => {
      const current = await findWriting(tx, w.id, { forUpdate: true });
      if (current?.revision?.state !== 'running') return;
      await updateWriting(
        tx,
        w.id,
        {
          revision: { ...current.revision, state: 'failed', message: TEXTS.revisionFailed },
          revisionsUsed: Math.max(0, current.revisionsUsed - 1),
        },
        new Date(),
      );
    });
    return { failed: true };
  }
}

export const reviseSectionJob = defineJob({
  name: REVISION_JOB,
  maxAttempts: 3,
  payloadSchema: revisePayload,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 60_000),
  handler: reviseSection,
});

// The sandbox's revision: template text saying what it was asked, marked like every sandbox text
// (with the sample figure data when the item asks for a picture, as the first draft had).
registerSandboxTemplate('writing.revise', (fenced) => {
  const prompt = plainPrompt(fenced);
  const asked = /修改要求(?:（[^）\n]*）)?：([^\n]+)/.exec(prompt.user)?.[1]?.trim();
  const text = sandboxText(prompt);
  const revised = asked
    ? `${SANDBOX_MARK}（按修改要求“${asked}”重写的模板文字）${text.slice(SANDBOX_MARK.length)}`
    : text;
  return prompt.user.includes(FIGURE_ASK) ? `${revised}\n${sandboxFigureData()}` : revised;
});
