import type { Database, Kysely } from '@kyfw/db';
import { cancelJob, enqueue } from '../../jobs/index.ts';
import type { AccountHooks } from '../accounts/index.ts';
import { CHECK_PURGE_JOB } from '../check/check.service.ts';
import {
  deleteAccountReductions,
  findRewriteJobId,
  listReductionsForExport,
  lockUndeliveredReductionsOf,
  sumAccountReductionFileBytes,
} from './reduction.repo.ts';
import { afterText, type ReductionRuntime } from './reduction.service.ts';
import { KIND_NAMES, STATUS_TEXTS, TEXTS } from './reduction.texts.ts';

/**
 * The texts a student sent to be rewritten, and their rewrites, are personal data. When the
 * account is deleted (or closed for inactivity), inside its deletion transaction (after the orders
 * module locked the account's orders, DELETION_RANK.service): a paid reduction not yet delivered
 * is stopped (its rewrite job cancelled) and its order refunded in full, as the check module does
 * for checks; then every reduction row is deleted, and a job is queued (the check module's purge,
 * the same file storage) that deletes the uploaded .docx files once the deletion commits. The
 * orders and payments stay with the orders module (kept, de-identified). The AIGC detection
 * reports are checks of kind 'aigc' and go with the check module's hook.
 */
export function registerReductionAccountHooks(hooks: AccountHooks, rt: ReductionRuntime): void {
  hooks.onDeletion('reduction', async (tx, userId, { status }) => {
    await stopReductionsOfErasedAccount(rt, tx, userId, status);
    const keys = await deleteAccountReductions(tx, userId);
    if (keys.length > 0) await enqueue(tx, CHECK_PURGE_JOB, { keys, libraryIds: [] }, { maxAttempts: 5 });
  });

  hooks.addStorageUse('reduction', sumAccountReductionFileBytes);

  hooks.addExportSection('reductions', async (db, userId) =>
    (await listReductionsForExport(db, userId)).map((r) => ({
      kind: KIND_NAMES[r.kind],
      source: r.source,
      title: r.title,
      fileName: r.fileName,
      chars: r.chars,
      orderId: r.orderId,
      status: STATUS_TEXTS[r.status],
      originalText: r.originalText,
      rewrittenText: r.status === 'done' ? afterText(r) : null,
      rateBefore: r.rateBefore,
      rateAfter: r.rateAfter,
      aigcBefore: r.aigcBefore,
      aigcAfter: r.aigcAfter,
      createdAt: r.createdAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      deletedAt: r.hiddenAt?.toISOString() ?? null,
    })),
  );
}

/**
 * Stops the account's undelivered reductions: the rewrite job is cancelled (a running one sees its
 * signal abort and its late result is discarded), and a paid order still kept is refunded in full
 * in this transaction. A pending order was cancelled by the orders module's hook before.
 */
async function stopReductionsOfErasedAccount(
  rt: Pick<ReductionRuntime, 'orders'>,
  tx: Kysely<Database>,
  userId: string,
  erasure: 'deleted' | 'closed',
): Promise<void> {
  const texts =
    erasure === 'deleted'
      ? { reason: TEXTS.refundDeletedAccount, statusText: TEXTS.deletedAccountStatus }
      : { reason: TEXTS.refundClosedAccount, statusText: TEXTS.closedAccountStatus };
  for (const r of await lockUndeliveredReductionsOf(tx, userId)) {
    if (!r.orderId) continue;
    const orderId = r.orderId;
    const stop = async () => {
      const jobId = await findRewriteJobId(tx, orderId);
      if (jobId) await cancelJob(tx, jobId);
      return true;
    };
    const order = await rt.orders.getOrder(orderId, { tx });
    if (order && order.payStatus === 1 && !order.autoRefund)
      await rt.orders.refundUndelivered(orderId, { tx, ...texts, update: stop });
    else await stop();
  }
}
