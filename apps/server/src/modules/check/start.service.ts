import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { enqueue } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUuid } from '../../lib/uuid.ts';
import { consumeEntitlement } from '../accounts/index.ts';
import { AIGC_TEXTS } from './aigc/aigc.texts.ts';
import { findAddon, reopenFailedAddon } from './aigc/aigc-addon.repo.ts';
import { entitlementOfKind } from './aigc/aigc-report.ts';
import { lockCheck, markQueued } from './check.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { TEXTS } from './check.texts.ts';
import { freeCapOf, freeUsedText, getCheckGoods } from './check-goods.service.ts';
import { CHECK_JOB } from './job-names.ts';
import { getOwnCheck, paidAndKept } from './own-check.ts';
import { getCheckStatus } from './status.service.ts';

/** Starting a check: the free start, the paid order's hook, a retry — each queues the check job. */

/**
 * A free check with the AIGC add-on (decision 0020) uses the free AIGC detection too, in the same
 * transaction as the free check: both or neither. A failed add-on of a check run again is reopened.
 */
async function useAddonFreeUse(tx: Kysely<Database>, userId: string, checkId: string, now: Date) {
  const addon = await findAddon(tx, checkId);
  if (!addon?.free) return;
  await reopenFailedAddon(tx, checkId, now);
  const used = await consumeEntitlement(userId, 'free_aigc_detection', { tx, usedFor: checkId, now });
  if (!used) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, AIGC_TEXTS.addonFreeUsed);
}

/** Enqueues the check job for a check and marks it queued (inside the caller's transaction). */
export async function queueCheck(
  tx: Kysely<Database>,
  checkId: string,
  dedupeKey: string,
  now: Date,
): Promise<boolean> {
  const { id } = await enqueue(tx, CHECK_JOB, { checkId }, { dedupeKey, maxAttempts: 3 });
  return markQueued(tx, checkId, id, now);
}

/**
 * /freeCheck/payFee: starts a free check by using the account's free_check entitlement, atomically
 * (of two concurrent calls exactly one consumes it) and in the same transaction that queues the job.
 * Calling it again on a started check changes nothing.
 */
export async function startFreeCheck(rt: CheckRuntime, userId: string, orderId: string) {
  const own = await getOwnCheck(rt, userId, orderId);
  const goods = await getCheckGoods(rt, own.goodsId);
  const cap = freeCapOf(rt, goods);
  if (!own.free) {
    // Say why this check is not free: its goods never is, the paper is over the free cap, or it
    // was uploaded as a paid check (the free check was used, or not available then).
    if (cap === null) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeNotForGoods);
    if (own.chars > cap)
      throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeOverCap(own.chars, cap));
    throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.paidCheck);
  }
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const check = await lockCheck(tx, own.id);
    if (check?.status !== 'pending') return; // already started
    if (cap === null) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeNotForGoods);
    if (check.chars > cap)
      throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, TEXTS.freeOverCap(check.chars, cap));
    const used = await consumeEntitlement(userId, entitlementOfKind(check.kind), {
      tx,
      usedFor: check.id,
      now,
    });
    if (!used) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, freeUsedText(check.kind));
    await useAddonFreeUse(tx, userId, check.id, now);
    await queueCheck(tx, check.id, `check:${check.id}:1`, now);
  });
  return getCheckStatus(rt, userId, orderId);
}

/**
 * The onPaid('check') hook: queue the check of a paid order, in the payment's transaction, under a
 * lock on the check's row (deleteCheck takes the same lock, so of a delete and a payment exactly
 * one wins). `deleted`: the check was deleted (by the user, or with the account) before the
 * payment was accepted, or never existed — there is nothing to check and the payment must be
 * refunded.
 */
export async function queuePaidCheck(
  tx: Kysely<Database>,
  orderId: string,
  serviceRef: string | null,
  now: Date,
): Promise<'queued' | 'deleted' | 'unchanged'> {
  const check =
    (await lockCheck(tx, orderId)) ??
    (serviceRef && isUuid(serviceRef) ? await lockCheck(tx, serviceRef) : undefined);
  if (!check || (check.hiddenAt && check.status === 'pending')) return 'deleted';
  if (check.status !== 'pending') return 'unchanged';
  return (await queueCheck(tx, check.id, `check:${check.id}:1`, now)) ? 'queued' : 'unchanged';
}

/**
 * /freeCheck/retryCheck: a failed check runs again (a free one uses the free check again). A paid
 * check whose money was given back when it failed cannot: the user uploads it again and pays.
 */
export async function retryCheck(rt: CheckRuntime, userId: string, orderId: string) {
  const own = await getOwnCheck(rt, userId, orderId);
  if (own.status !== 'failed') throw new AppError(ErrorCode.CHECK_NOT_RETRYABLE);
  const now = rt.now();
  await rt.db.transaction().execute(async (tx) => {
    const check = await lockCheck(tx, own.id);
    if (check?.status !== 'failed') return;
    if (!check.free && check.orderId) {
      // The refund is recorded in the transaction that failed the check, so it is seen here.
      const order = await rt.orders.getOrder(check.orderId, { tx });
      if (!paidAndKept(order)) throw new AppError(ErrorCode.CHECK_NOT_RETRYABLE, TEXTS.refundedNoRetry);
    }
    if (check.free) {
      const used = await consumeEntitlement(userId, entitlementOfKind(check.kind), {
        tx,
        usedFor: check.id,
        now,
      });
      if (!used) throw new AppError(ErrorCode.CHECK_FREE_UNAVAILABLE, freeUsedText(check.kind));
      await useAddonFreeUse(tx, userId, check.id, now);
    }
    await queueCheck(tx, check.id, `check:${check.id}:retry:${randomUUID()}`, now);
  });
  return getCheckStatus(rt, userId, orderId);
}
