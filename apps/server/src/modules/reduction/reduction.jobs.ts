import { detectAigc } from '@kyfw/aigc';
import type { Database, Kysely } from '@kyfw/db';
import { z } from 'zod';
import { defineJob, type JobContext, type JobDefinition } from '../../jobs/index.ts';
import { SANDBOX_MARK } from '../../providers/llm/index.ts';
import { type PaidHandler, serviceUndeliverable } from '../orders/orders.api.ts';
import { lostFacts } from './reduction.facts.ts';
import { REWRITE_TASK, rewriteMessages } from './reduction.prompts.ts';
import { findReduction, type Reduction, type RewriteResult, updateReduction } from './reduction.repo.ts';
import { afterText, REDUCTION_JOB, startPaidReduction } from './reduction.service.ts';
import { TEXTS } from './reduction.texts.ts';

/** Rewrites of one paragraph before it is kept as it was. */
export const ATTEMPTS_PER_PARAGRAPH = 3;

const payloadSchema = z.object({ reductionId: z.string().min(1) });

/**
 * Why a rewrite cannot be delivered: facts it lost, or a length that is not a rewrite of the
 * paragraph (under half or over twice the original, the sandbox mark not counted). Empty: it passes.
 */
export function rewriteProblems(original: string, rewrite: string): string[] {
  const lost = lostFacts(original, rewrite);
  const body = rewrite.replace(SANDBOX_MARK, '').trim();
  const ratio = body.length / Math.max(1, original.trim().length);
  if (ratio < 0.5 || ratio > 2) lost.push('段落原意（长度异常）');
  return lost;
}

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
 * Rewrites the target paragraphs one by one. Every rewrite is checked by code (rewriteProblems);
 * a failing one is asked for again with what it lost, and after ATTEMPTS_PER_PARAGRAPH the
 * original stays. Each accepted or kept paragraph is saved at once, so a job that runs again
 * (restart, lost lease, retry) continues after the last saved one. After the last attempt of the
 * job fails (the LLM unavailable), the order is refunded in full.
 */
async function rewrite(ctx: JobContext<z.infer<typeof payloadSchema>>) {
  const { db } = ctx;
  let r = await findReduction(db, { id: ctx.payload.reductionId });
  if (!r) return { skipped: 'missing' };
  if (r.status !== 'rewriting' || !r.orderId) return { skipped: r.status };
  const orderId = r.orderId;
  const orders = ctx.services.reduction.orders;
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
      const done = results.length;
      const percent = Math.min(90, 5 + Math.floor((done / targets.length) * 85));
      await ctx.reportProgress(percent, TEXTS.progressRewriting(done + 1, targets.length));
      let accepted: RewriteResult | undefined;
      let lost: string[] = [];
      for (let attempt = 1; attempt <= ATTEMPTS_PER_PARAGRAPH && !accepted; attempt += 1) {
        const answer = await llm.chat({
          task: REWRITE_TASK,
          userId: r.userId,
          orderNo: order?.orderNo ?? null,
          messages: rewriteMessages(r.kind, p.text.trim(), lost.length > 0 ? lost.join('、') : undefined),
          signal: ctx.signal,
        });
        const text = answer.text.trim().replace(/\n+/g, '');
        lost = rewriteProblems(p.text, text);
        if (lost.length === 0)
          accepted = { index: p.index, after: text, outcome: 'rewritten', attempts: attempt, lost: [] };
      }
      results.push(
        accepted ?? {
          index: p.index,
          after: p.text,
          outcome: 'kept',
          attempts: ATTEMPTS_PER_PARAGRAPH,
          lost,
        },
      );
      await updateReduction(db, r.id, { results, progress: percent }, new Date());
    }
    await ctx.reportProgress(92, TEXTS.progressMeasuringAfter);
    const after = afterText({ ...r, results });
    const rateAfter = await similarityOf(ctx, after);
    const aigcAfter = aigcOf(after);
    await updateReduction(
      db,
      r.id,
      { rateAfter, aigcAfter, status: 'done', progress: 100, finishedAt: new Date() },
      new Date(),
    );
    await ctx.reportProgress(100, TEXTS.progressDone);
    await orders.markDone(orderId);
    return { paragraphs: targets.length, kept: results.filter((x) => x.outcome === 'kept').length };
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
