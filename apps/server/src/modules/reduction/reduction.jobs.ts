import { detectAigc } from '@kyfw/aigc';
import type { Database, Kysely } from '@kyfw/db';
import { z } from 'zod';
import { cancelJobByKey, defineJob, type JobContext, type JobDefinition } from '../../jobs/index.ts';
import { type PaidHandler, type RefundHandler, serviceUndeliverable } from '../orders/index.ts';
import { findReduction, type Reduction, type RewriteResult, updateReduction } from './reduction.repo.ts';
import { refundFenOf, rewriteParagraph } from './reduction.rewrite.ts';
import { afterText, REDUCTION_JOB, startPaidReduction } from './reduction.service.ts';
import { TEXTS } from './reduction.texts.ts';

const payloadSchema = z.object({ reductionId: z.string().min(1) });

/** The engine's similarity rate (0–1) of a text, through the check's worker threads. */
async function similarityOf(ctx: JobContext<unknown>, text: string): Promise<number> {
  const rt = ctx.services.check;
  const { report } = await rt.pool.compare(rt.indexLocation, text, []);
  return report.ratio;
}

/** The detector's document AIGC index (0–100). */
function aigcOf(text: string): number {
  return detectAigc(text).score;
}

/**
 * Picks the paragraphs the engine (降重) or the detector (降AIGC) flags among the rewritable
 * ones; when none is flagged, every rewritable paragraph stays a target (the student paid for it).
 * A report's reduction keeps the report's flagged passages as they were chosen.
 */
async function chooseTargets(ctx: JobContext<unknown>, r: Reduction) {
  if (r.source === 'report') return r.paragraphs;
  const flagged = new Set<number>();
  for (const p of r.paragraphs) {
    if (!p.target) continue;
    if (r.kind === 'aigc_reduction') {
      const d = detectAigc(p.text);
      if (d.paragraphs.some((x) => x.score >= d.threshold)) flagged.add(p.index);
    } else {
      const rt = ctx.services.check;
      const { report } = await rt.pool.compare(rt.indexLocation, p.text, []);
      if (report.copiedChars > 0) flagged.add(p.index);
    }
  }
  if (flagged.size === 0) return r.paragraphs;
  return r.paragraphs.map((p) => ({ ...p, target: p.target && flagged.has(p.index) }));
}

/**
 * Rewrites the target paragraphs one by one (rewriteParagraph: every answer checked by code,
 * regenerated a bounded number of times, else the original stays with the rules it broke). Each
 * accepted or kept paragraph is saved at once, so a job that runs again (restart, lost lease,
 * retry) continues after the last saved one. At the end the order is charged only for what was
 * rewritten (finish). After the job's last attempt fails (the LLM unavailable), the order is
 * refunded in full.
 */
async function rewrite(ctx: JobContext<z.infer<typeof payloadSchema>>) {
  const { db } = ctx;
  let r = await findReduction(db, { id: ctx.payload.reductionId });
  if (!r) return { skipped: 'missing' };
  const orders = ctx.services.reduction.orders;
  // Finished before a crash between its two steps: the order still has to be marked done.
  if (r.status === 'done' && r.orderId && r.results.some((x) => x.outcome === 'rewritten'))
    await orders.markDone(r.orderId);
  if (r.status !== 'rewriting' || !r.orderId) return { skipped: r.status };
  const orderId = r.orderId;
  const order = await orders.getOrder(orderId);
  await orders.markProcessing(orderId);
  const llm = ctx.services.reduction.llm.provider;
  try {
    if (r.rateBefore === null || r.aigcBefore === null) {
      await ctx.reportProgress(2, TEXTS.progressMeasuring);
      const paragraphs = await chooseTargets(ctx, r);
      const rateBefore = await similarityOf(ctx, r.originalText);
      const aigcBefore = aigcOf(r.originalText);
      await updateReduction(
        db,
        r.id,
        { paragraphs, rateBefore, aigcBefore, sandbox: llm.kind === 'sandbox', progress: 5 },
        new Date(),
      );
      r = { ...r, paragraphs, rateBefore, aigcBefore };
    }
    const targets = r.paragraphs.filter((p) => p.target);
    const results: RewriteResult[] = [...r.results];
    for (const p of targets) {
      if (results.some((x) => x.index === p.index)) continue;
      // Ended under the run (a full refund, reductionRefundedHandler): stop before the next paragraph.
      if ((await findReduction(db, { id: r.id }))?.status !== 'rewriting') return { skipped: 'ended' };
      const done = results.length;
      const percent = Math.min(90, 5 + Math.floor((done / targets.length) * 85));
      await ctx.reportProgress(percent, TEXTS.progressRewriting(done + 1, targets.length));
      const outcome = await rewriteParagraph(llm, {
        kind: r.kind,
        paragraph: p.text,
        title: r.title,
        userId: r.userId,
        orderNo: order?.orderNo ?? null,
        signal: ctx.signal,
      });
      results.push(
        outcome.ok
          ? {
              index: p.index,
              after: outcome.text,
              outcome: 'rewritten',
              attempts: outcome.attempts,
              lost: [],
            }
          : {
              index: p.index,
              after: p.text,
              outcome: 'kept',
              attempts: outcome.attempts,
              lost: [],
              problems: outcome.problems,
            },
      );
      await updateReduction(db, r.id, { results, progress: percent }, new Date());
    }
    if ((await findReduction(db, { id: r.id }))?.status !== 'rewriting') return { skipped: 'ended' };
    await ctx.reportProgress(92, TEXTS.progressMeasuringAfter);
    const after = afterText({ ...r, results });
    const rateAfter = await similarityOf(ctx, after);
    const aigcAfter = aigcOf(after);
    const kept = results.filter((x) => x.outcome === 'kept').length;
    await finish(ctx, { ...r, results }, { rateAfter, aigcAfter, amountFen: order?.amountFen ?? 0 });
    await ctx.reportProgress(100, TEXTS.progressDone);
    return { paragraphs: targets.length, kept };
  } catch (error) {
    if (ctx.signal.aborted || ctx.job.attempts < ctx.job.maxAttempts) throw error;
    ctx.logger.error({ err: error, reductionId: r.id }, 'reduction failed for good; refunding');
    await orders.refundUndelivered(orderId, {
      reason: TEXTS.failedRefund,
      statusText: TEXTS.failedStatus,
      update: async (tx: Kysely<Database>) => {
        const current = await findReduction(tx, { id: r!.id }, { forUpdate: true });
        if (!current || current.status === 'failed' || current.status === 'done') return false;
        await updateReduction(tx, current.id, { status: 'failed', failureReason: TEXTS.failed }, new Date());
        return true;
      },
    });
    return { failed: true };
  }
}

/**
 * The job's end: the reduction is done, and the order charged only for the target paragraphs
 * rewritten (decision 0027). None rewritten: the order is undelivered and refunded in full
 * (refundUndelivered). Some kept: the part that paid for them is refunded (refundPart) and the
 * order is done. The reduction's row changes inside the refund's transaction, under the order's
 * lock (refund_fen, status done), so the refund is recorded exactly once.
 */
async function finish(
  ctx: JobContext<unknown>,
  r: Reduction,
  m: { rateAfter: number; aigcAfter: number; amountFen: number },
): Promise<void> {
  const orders = ctx.services.reduction.orders;
  const orderId = r.orderId!;
  const refundFen = refundFenOf(m.amountFen, r.paragraphs, r.results);
  const targets = r.paragraphs.filter((p) => p.target).length;
  const kept = r.results.filter((x) => x.outcome === 'kept').length;
  const update = async (tx: Kysely<Database>) => {
    const current = await findReduction(tx, { id: r.id }, { forUpdate: true });
    if (current?.status !== 'rewriting') return false;
    const now = new Date();
    await updateReduction(
      tx,
      r.id,
      {
        rateAfter: m.rateAfter,
        aigcAfter: m.aigcAfter,
        refundFen,
        status: 'done',
        progress: 100,
        finishedAt: now,
      },
      now,
    );
    return true;
  };
  if (kept === targets) {
    await orders.refundUndelivered(orderId, {
      reason: TEXTS.noneRewrittenRefund,
      statusText: TEXTS.noneRewrittenStatus,
      update,
    });
    return;
  }
  const applied =
    refundFen > 0
      ? (
          await orders.refundPart(orderId, {
            amountFen: refundFen,
            reason: TEXTS.partRefundReason(kept, targets),
            update,
          })
        ).applied
      : await ctx.db.transaction().execute(update);
  // Not applied: the reduction was ended meanwhile (a full refund); its order is not done.
  if (applied) await orders.markDone(orderId);
}

export const reductionRewriteJob = defineJob({
  name: REDUCTION_JOB,
  maxAttempts: 3,
  payloadSchema,
  backoffMs: (attempt) => Math.min(5_000 * 2 ** (attempt - 1), 60_000),
  handler: rewrite,
});

// biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
export const reductionJobDefinitions: readonly JobDefinition<any, any>[] = [reductionRewriteJob];

/**
 * The onPaid handler of both service types (reduction.module.ts hooks): a paid order starts its
 * rewrite in the payment's transaction (one job per order).
 */
export const reductionPaidHandler: PaidHandler = async ({ tx, order }) => {
  const r = await findReduction(tx, { orderId: order.orderId }, { forUpdate: true });
  if (!r || r.hiddenAt) return serviceUndeliverable(TEXTS.deletedRefund, TEXTS.deletedStatus);
  if (r.status === 'rewriting' || r.status === 'done') return;
  await startPaidReduction(tx, r, order.orderId, new Date());
};

/**
 * The onRefunded handler of both service types (decision 0034): an operator refunded everything
 * left of the order, inside the refund's transaction (the order locked first, then the
 * reduction). A reduction not yet done ends: failed with 订单已全额退款，改写已终止 (its status
 * reads 已退款), its job cancelled — a queued one leaves the queue, a running one stops before its
 * next paragraph and delivers nothing. A done reduction stays done; its order reads 已退款.
 */
export const reductionRefundedHandler: RefundHandler = async ({ tx, order }) => {
  const r = await findReduction(tx, { orderId: order.orderId }, { forUpdate: true });
  if (!r || (r.status !== 'ordered' && r.status !== 'rewriting')) return;
  await updateReduction(tx, r.id, { status: 'failed', failureReason: TEXTS.refundEnded }, new Date());
  await cancelJobByKey(tx, `reduction:${order.orderId}`);
};
