import type { Database, Kysely } from '@kyfw/db';
import { z } from 'zod';
import { cancelJobByKey, defineJob, type JobContext, type JobDefinition } from '../../jobs/index.ts';
import { type PaidHandler, type RefundHandler, serviceUndeliverable } from '../orders/index.ts';
import { WritingRejected, writeCheckedSection } from './writing.checked.ts';
import { totalRemoved } from './writing.citations.ts';
import { auditDraft } from './writing.docx.ts';
import { figureForSection } from './writing.figure.ts';
import { sectionMessages } from './writing.prompts.ts';
import { findWriting, findWritingByOrder, updateWriting, type WrittenSection } from './writing.repo.ts';
import {
  REVISIONS_GOODS,
  reviseSectionJob,
  revisionsDeliveredJob,
  revisionsPaidHandler,
} from './writing.revisions.ts';
import type { OutlineItem } from './writing.schemas.ts';
import { factsOfWriting, proposeOutline, startPaidWriting, WRITING_JOB } from './writing.service.ts';
import { TEXTS } from './writing.texts.ts';

export interface OutlineLeaf {
  path: string;
  heading: string;
  level: number;
  item: OutlineItem;
}

/** The items that get text of their own (those without children), in reading order. */
export function leavesOf(outline: readonly OutlineItem[], prefix = '', level = 1): OutlineLeaf[] {
  return outline.flatMap((item, i) => {
    const path = prefix ? `${prefix}.${i + 1}` : String(i + 1);
    return item.children && item.children.length > 0
      ? leavesOf(item.children, path, level + 1)
      : [{ path, heading: item.name, level, item }];
  });
}

const payloadSchema = z.object({ writingId: z.string().min(1) });

/**
 * Writes the full text section by section. Each finished section is saved at once, so a job that
 * runs again (restart, lost lease, retry) continues after the last saved section. The validator
 * removes every citation that does not point to a numbered source; an item asking for a picture
 * gets the chart of the numbers its text gives, if any (writing.figure.ts). After its last attempt fails,
 * the order is refunded in full.
 */
async function writeFullText(ctx: JobContext<z.infer<typeof payloadSchema>>) {
  const { db } = ctx;
  let w = await findWriting(db, ctx.payload.writingId);
  if (!w) return { skipped: 'missing' };
  if (w.status !== 'writing' || !w.orderId) return { skipped: w.status };
  const orderId = w.orderId;
  const rt = ctx.services.writing;
  const orders = rt.orders;
  const order = await orders.getOrder(orderId);
  await orders.markProcessing(orderId);
  const llm = rt.llm.provider;
  try {
    if (!w.outline) {
      await ctx.reportProgress(1, '正在生成大纲');
      const outline = await proposeOutline(llm, w, w.userId, order?.orderNo ?? null, ctx.signal);
      await updateWriting(db, w.id, { outline }, new Date());
      w = { ...w, outline };
    }
    const leaves = leavesOf(w.outline!);
    const sections: WrittenSection[] = [...w.sections];
    const facts = factsOfWriting(w);
    let lastReport = 0;
    for (const leaf of leaves) {
      if (sections.some((s) => s.path === leaf.path)) continue;
      // Ended under the run (a full refund, writingRefundedHandler): stop before the next section.
      if ((await findWriting(db, w.id))?.status !== 'writing') return { skipped: 'ended' };
      const done = sections.length;
      const percentOf = (fraction: number) =>
        Math.min(99, Math.max(1, Math.floor(((done + fraction) / leaves.length) * 100)));
      const label = `正在撰写 ${leaf.path} ${leaf.heading}（${done + 1}/${leaves.length}）`;
      await ctx.reportProgress(percentOf(0), label);
      const before = leaves.flatMap((l) => sections.filter((s) => s.path === l.path));
      const outcome = await writeCheckedSection({
        llm,
        task: 'writing.section',
        messages: sectionMessages(
          facts,
          { ...leaf, wordCount: leaf.item.wordCount, outline: w.outline!, before },
          w.sources,
        ),
        wordCount: leaf.item.wordCount,
        language: w.language,
        sources: w.sources,
        userId: w.userId,
        orderNo: order?.orderNo ?? null,
        signal: ctx.signal,
        onText: (text) => {
          const at = Date.now();
          if (at - lastReport < 1000) return;
          lastReport = at;
          const fraction = Math.min(0.95, text.length / Math.max(1, leaf.item.wordCount));
          void updateWriting(db, w!.id, { progress: percentOf(fraction) }, new Date()).catch(() => {});
        },
      });
      // No answer passed: nothing of this section is kept; the job's next attempt asks again, and
      // after its last the order is refunded.
      if (!outcome.ok) {
        throw new WritingRejected(outcome.violations);
      }
      const figure = await figureForSection(llm, {
        facts,
        section: leaf,
        text: outcome.text,
        userId: w.userId,
        orderNo: order?.orderNo ?? null,
        signal: ctx.signal,
      });
      sections.push({
        path: leaf.path,
        heading: leaf.heading,
        level: leaf.level,
        text: outcome.text,
        removedCitations: totalRemoved(outcome.removed),
        ...(leaf.item.picture === '1' ? { figure } : {}),
      });
      await updateWriting(db, w.id, { sections, progress: percentOf(1) }, new Date());
    }
    // The final audit: the .docx the student downloads, every paragraph of it, cites only its list.
    const audit = await auditDraft({ ...w, sections }, llm.kind === 'sandbox');
    if (audit.failing.length > 0 || !audit.docx.passed) {
      // The sections that hold what does not resolve are written again by the next attempt.
      await updateWriting(
        db,
        w.id,
        { sections: sections.filter((s) => !audit.failing.includes(s.path)) },
        new Date(),
      );
      throw new Error(TEXTS.finalAuditFailed(audit.docx.findings.map((f) => f.match)));
    }
    // Done only while still being written: a draft ended by a full refund meanwhile stays ended.
    const finished = await db.transaction().execute(async (tx) => {
      const current = await findWriting(tx, w!.id, { forUpdate: true });
      if (current?.status !== 'writing') return false;
      await updateWriting(
        tx,
        current.id,
        { status: 'done', progress: 100, finishedAt: new Date() },
        new Date(),
      );
      return true;
    });
    if (!finished) return { skipped: 'ended' };
    await ctx.reportProgress(100, '全文已生成');
    await orders.markDone(orderId);
    return { sections: sections.length };
  } catch (error) {
    if (ctx.job.attempts < ctx.job.maxAttempts && !ctx.signal.aborted) throw error;
    if (ctx.signal.aborted) throw error;
    ctx.logger.error({ err: error, writingId: w.id }, 'full text failed for good; refunding');
    await orders.refundUndelivered(orderId, {
      reason: TEXTS.refundReason,
      statusText: TEXTS.failedStatus,
      update: async (tx: Kysely<Database>) => {
        const current = await findWriting(tx, w!.id, { forUpdate: true });
        if (!current || current.status === 'failed' || current.status === 'done') return false;
        await updateWriting(
          tx,
          current.id,
          { status: 'failed', failureReason: TEXTS.failedStatus },
          new Date(),
        );
        return true;
      },
    });
    return { failed: true };
  }
}

export const writingFullTextJob = defineJob({
  name: WRITING_JOB,
  maxAttempts: 3,
  payloadSchema,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 60_000),
  handler: writeFullText,
});

// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const writingJobDefinitions: readonly JobDefinition<any, any>[] = [
  writingFullTextJob,
  reviseSectionJob,
  revisionsDeliveredJob,
];

/**
 * The onPaid('ai_writing') handler (writing.module.ts hooks): a paid full-text order starts its
 * writing in the payment's transaction (one job per order); a paid unlimited-revisions add-on
 * unlocks the draft's revisions (writing.revisions.ts).
 */
export const writingPaidHandler: PaidHandler = async (ctx) => {
  const { tx, order } = ctx;
  if (order.goodsId === REVISIONS_GOODS) return revisionsPaidHandler(ctx);
  const writing = await findWritingByOrder(tx, order.orderId, { forUpdate: true });
  if (!writing || writing.hiddenAt)
    return serviceUndeliverable('论文草稿已删除，无法生成全文，自动退还款项', '草稿已删除');
  if (writing.status === 'writing' || writing.status === 'done') return;
  await startPaidWriting(tx, writing, order.orderId, new Date());
};

/**
 * The onRefunded('ai_writing') handler (decision 0034): an operator refunded everything left of a
 * full text's order, inside the refund's transaction (the order locked first, then the draft). A
 * full text not yet written ends: failed with 订单已全额退款，全文生成已终止 (its status reads
 * 已退款), its job cancelled — a queued one leaves the queue, a running one stops before its next
 * section and is never marked done, so no .docx is delivered. A delivered draft stays delivered.
 * The unlimited-revisions add-on (its own order) ends nothing.
 */
export const writingRefundedHandler: RefundHandler = async ({ tx, order }) => {
  if (order.goodsId === REVISIONS_GOODS) return;
  const w = await findWritingByOrder(tx, order.orderId, { forUpdate: true });
  if (!w || (w.status !== 'ordered' && w.status !== 'writing')) return;
  await updateWriting(tx, w.id, { status: 'failed', failureReason: TEXTS.refundEnded }, new Date());
  await cancelJobByKey(tx, `writing:${order.orderId}`);
};
