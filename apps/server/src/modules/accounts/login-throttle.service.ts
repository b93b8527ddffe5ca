import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';
import {
  LOGIN_IP_DELAY_MS,
  LOGIN_IP_LOCK_AFTER,
  LOGIN_IP_SLOW_AFTER,
  LOGIN_LOCK_MS,
  LOGIN_PHONE_DELAYS_MS,
  LOGIN_PHONE_LOCK_AFTER,
  LOGIN_WINDOW_MS,
} from './accounts.policy.ts';
import { formatWait, TEXTS } from './accounts.texts.ts';
import { lockKey } from './sms-codes.repo.ts';
import {
  insertLoginAttempt,
  listLoginAttempts,
  markLoginFailed,
  markLoginSucceeded,
} from './throttle.repo.ts';

/** A try left unsettled this long (its process died mid-check) counts as a failure per address too. */
const UNSETTLED_COUNTS_AFTER_MS = 60_000;

type Attempt = { succeeded: boolean; createdAt: Date };

/** Failures since the last success within the window, newest first. */
function recentFailures(attempts: readonly Attempt[]): Date[] {
  const failures: Date[] = [];
  for (const a of attempts) {
    if (a.succeeded) break;
    failures.push(a.createdAt);
  }
  return failures;
}

/** How long the next try must wait (0 = may try now), and whether that is a lock or a slow-down. */
function phoneWait(failures: readonly Date[], now: number): { waitMs: number; locked: boolean } {
  const count = failures.length;
  if (count === 0) return { waitMs: 0, locked: false };
  const last = failures[0].getTime();
  if (count >= LOGIN_PHONE_LOCK_AFTER) return { waitMs: last + LOGIN_LOCK_MS - now, locked: true };
  const delay = LOGIN_PHONE_DELAYS_MS[count] ?? 0;
  return { waitMs: last + delay - now, locked: false };
}

function ipWait(failures: readonly Date[], now: number): { waitMs: number; locked: boolean } {
  const count = failures.length;
  if (count === 0) return { waitMs: 0, locked: false };
  const last = failures[0].getTime();
  if (count >= LOGIN_IP_LOCK_AFTER) return { waitMs: last + LOGIN_LOCK_MS - now, locked: true };
  if (count >= LOGIN_IP_SLOW_AFTER) return { waitMs: last + LOGIN_IP_DELAY_MS - now, locked: false };
  return { waitMs: 0, locked: false };
}

/**
 * Slows down and then locks repeated login failures per phone and per client IP (see
 * accounts.policy.ts). The same rules and messages apply to registered and unregistered phones.
 */
export function createLoginThrottle(deps: { db: Kysely<Database>; now: () => Date }) {
  return {
    /**
     * Refuses the try when the phone or the IP must still wait; otherwise records it, unsettled,
     * and returns its id for `succeeded` / `failed`. Per phone an unsettled try counts as a failure
     * (racing guesses at one account count before any password is checked); per IP only settled
     * failures count, so correct logins of many people behind one address never throttle each
     * other. Check and record are one transaction under per-phone and per-IP locks.
     * @throws AppError LOGIN_THROTTLED | LOGIN_LOCKED, with the wait in the message
     */
    async begin(phone: string, clientIp: string): Promise<number> {
      const now = deps.now();
      const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
      return deps.db.transaction().execute(async (tx) => {
        await lockKey(tx, `login:phone:${phone}`);
        await lockKey(tx, `login:ip:${clientIp}`);
        const byPhone = recentFailures(await listLoginAttempts(tx, { phone }, since));
        // Per IP every failure in the window counts: logging into one's own account in between
        // must not reset a spray over many phones.
        const unsettledBefore = now.getTime() - UNSETTLED_COUNTS_AFTER_MS;
        const byIp = (await listLoginAttempts(tx, { clientIp }, since))
          .filter((a) => !a.succeeded && (a.settledAt !== null || a.createdAt.getTime() < unsettledBefore))
          .map((a) => a.createdAt);
        const waits = [phoneWait(byPhone, now.getTime()), ipWait(byIp, now.getTime())].filter(
          (w) => w.waitMs > 0,
        );
        const locked = waits.find((w) => w.locked);
        if (locked) throw new AppError(ErrorCode.LOGIN_LOCKED, TEXTS.loginLocked(formatWait(locked.waitMs)));
        if (waits.length > 0) {
          const waitMs = Math.max(...waits.map((w) => w.waitMs));
          throw new AppError(ErrorCode.LOGIN_THROTTLED, TEXTS.loginThrottled(formatWait(waitMs)));
        }
        return insertLoginAttempt(tx, { phone, clientIp, succeeded: false, settled: false, now });
      });
    },

    /** The password was right: the try counts as a success, which resets the phone's count. */
    async succeeded(attemptId: number): Promise<void> {
      await markLoginSucceeded(deps.db, attemptId, deps.now());
    },

    /** The password was wrong (or the account unusable): the try counts as a failure for the IP too. */
    async failed(attemptId: number): Promise<void> {
      await markLoginFailed(deps.db, attemptId, deps.now());
    },

    /**
     * The phone's owner proved themselves another way (password reset by SMS code): their failure
     * count starts over, so an attacker's lockout does not keep them out.
     */
    async reset(phone: string, clientIp: string): Promise<void> {
      await insertLoginAttempt(deps.db, { phone, clientIp, succeeded: true, settled: true, now: deps.now() });
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
