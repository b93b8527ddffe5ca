import type { Database, Kysely } from '@kyfw/db';
import { cancelJob } from '../../jobs/index.ts';
import { restoreEntitlement } from '../accounts/index.ts';
import { restoreAddonFreeUse } from './aigc/aigc-addon.ts';
import { entitlementOfKind } from './aigc/aigc-report.ts';
import {
  type CheckRecord,
  lockCheck,
  lockUndeliveredChecksOf,
  markFailed,
  markStopped,
} from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { paidAndKept } from './own-check.ts';

/** Ending a check without a report: failed for good, or stopped with its account; nobody keeps paying. */

/**
 * Fails a check for good with a reason the user sees. Nobody keeps paying for a check that gave no
 * report: a free check's entitlement is given back (the user can try again), and a paid check's
 * money is refunded in full through the payment platform, in the transaction that fails it (the
 * orders module locks the order, then the check is marked failed, then the refund is recorded:
 * the lock order of modules/orders/README.md) and carried out right after (retried by the
 * reconciliation while the platform is down). Used by the job's last attempt and when its job
 * died without running. Failing an already failed check changes nothing.
 */
export async function failCheck(rt: CheckRuntime, check: CheckRecord, reason: string): Promise<void> {
  const now = rt.now();
  if (!check.free && check.orderId) {
    await rt.orders.refundUndelivered(check.orderId, {
      reason: TEXTS.refundFailedCheck,
      statusText: TEXTS.failedCheckStatus,
      update: (tx) => markFailed(tx, check.id, reason, now),
    });
    return;
  }
  await rt.db.transaction().execute(async (tx) => {
    const changed = await markFailed(tx, check.id, reason, now);
    if (changed && check.free) {
      await restoreEntitlement(check.userId, entitlementOfKind(check.kind), { tx, usedFor: check.id });
      // No report, so no AIGC section either: the add-on's free detection comes back too.
      await restoreAddonFreeUse(tx, check);
    }
  });
}

/**
 * Account deletion (or closing), inside its transaction, after the orders module's hook locked
 * every order of the account (modules/orders/README.md, "Lock order"); the account's checks not
 * done are locked first (ascending id), so a free start or a retry under way is waited for. Nobody
 * can read a report of the account any more, so no check of it keeps running and none keeps its
 * money: every check that has not delivered its report is stopped (failed, its job cancelled; a run already under way ends
 * without a report, see check-run.ts) and, when its order was paid and its money is not already on
 * the way back, the order is refunded in full automatically — the path of a paid check that failed
 * (refundUndelivered: the order, then the check, then the payment and its new refund), the refund
 * carried out by a job once the deletion commits. An unpaid order was cancelled by the orders hook
 * (a payment still arriving is refunded as a late one); its check is left pending, so a payment
 * accepted for an order that had expired is refunded by the onPaid hook (the check is hidden).
 */
export async function stopChecksOfErasedAccount(
  rt: Pick<CheckRuntime, 'orders'>,
  tx: Kysely<Database>,
  userId: string,
  now: Date,
  erasure: 'deleted' | 'closed' = 'deleted',
): Promise<void> {
  const orders = rt.orders;
  const texts =
    erasure === 'deleted'
      ? {
          refund: TEXTS.refundDeletedAccount,
          status: TEXTS.deletedAccountStatus,
          stopped: TEXTS.stoppedDeletedAccount,
        }
      : {
          refund: TEXTS.refundClosedAccount,
          status: TEXTS.closedAccountStatus,
          stopped: TEXTS.stoppedClosedAccount,
        };
  const stop = async (checkId: string): Promise<boolean> => {
    const current = await lockCheck(tx, checkId);
    if (!current || current.status === 'done') return false;
    if (await markStopped(tx, current.id, texts.stopped, now)) {
      if (current.jobId) await cancelJob(tx, current.jobId);
    }
    return true;
  };
  for (const check of await lockUndeliveredChecksOf(tx, userId)) {
    if (check.free || !check.orderId) {
      if (check.status === 'queued' || check.status === 'running') await stop(check.id);
      continue;
    }
    if (!paidAndKept(await orders.getOrder(check.orderId, { tx }))) continue;
    await orders.refundUndelivered(check.orderId, {
      tx,
      reason: texts.refund,
      statusText: texts.status,
      update: () => stop(check.id),
    });
  }
}
