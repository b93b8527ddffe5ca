import { setTimeout as sleep } from 'node:timers/promises';
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
/** How long a try waits for the phone's tries in flight to settle, and how often it looks. */
const IN_FLIGHT_WAIT_MS = 20_000;
const IN_FLIGHT_POLL_MS = 25;
/** The failure count from which the next try of a phone must wait (the first key of LOGIN_PHONE_DELAYS_MS). */
const LOGIN_PHONE_FIRST_DELAY_AT = Math.min(...Object.keys(LOGIN_PHONE_DELAYS_MS).map(Number));

type Attempt = { succeeded: boolean; createdAt: Date; settledAt: Date | null };

/**
 * The phone's settled failures since its last success (newest first) and its tries still being
 * checked (in flight). A try left unsettled longer than UNSETTLED_COUNTS_AFTER_MS (its process died
 * mid-check) counts as a failure.
 */
function phoneTries(attempts: readonly Attempt[], now: number): { failures: Date[]; inFlight: number } {
  const failures: Date[] = [];
  let inFlight = 0;
  for (const a of attempts) {
    if (a.succeeded) break;
    if (a.settledAt === null && a.createdAt.getTime() >= now - UNSETTLED_COUNTS_AFTER_MS) inFlight += 1;
    else failures.push(a.createdAt);
  }
  return { failures, inFlight };
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
  /**
   * One look under the per-phone and per-IP locks: refuses (throws) when the phone or the IP must
   * wait, records the try (unsettled) when it may go ahead, or answers `attemptId: null` when the
   * phone's settled failures plus its tries in flight could reach the lock (check again later).
   */
  async function tryBegin(phone: string, clientIp: string): Promise<{ attemptId: number | null }> {
    const now = deps.now();
    const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
    return deps.db.transaction().execute(async (tx) => {
      await lockKey(tx, `login:phone:${phone}`);
      await lockKey(tx, `login:ip:${clientIp}`);
      const byPhone = phoneTries(await listLoginAttempts(tx, { phone }, since), now.getTime());
      // Per IP every failure in the window counts: logging into one's own account in between
      // must not reset a spray over many phones.
      const unsettledBefore = now.getTime() - UNSETTLED_COUNTS_AFTER_MS;
      const byIp = (await listLoginAttempts(tx, { clientIp }, since))
        .filter((a) => !a.succeeded && (a.settledAt !== null || a.createdAt.getTime() < unsettledBefore))
        .map((a) => a.createdAt);
      const waits = [phoneWait(byPhone.failures, now.getTime()), ipWait(byIp, now.getTime())].filter(
        (w) => w.waitMs > 0,
      );
      const locked = waits.find((w) => w.locked);
      if (locked) throw new AppError(ErrorCode.LOGIN_LOCKED, TEXTS.loginLocked(formatWait(locked.waitMs)));
      if (waits.length > 0) {
        const waitMs = Math.max(...waits.map((w) => w.waitMs));
        throw new AppError(ErrorCode.LOGIN_THROTTLED, TEXTS.loginThrottled(formatWait(waitMs)));
      }
      // The first slow-down comes at the 3rd failure: never more tries in flight than could all
      // fail before it (one at a time after it), so racing guesses get no more checks than
      // sequential ones.
      const inFlightAllowed = Math.max(1, LOGIN_PHONE_FIRST_DELAY_AT - byPhone.failures.length);
      if (byPhone.inFlight >= inFlightAllowed) return { attemptId: null };
      return {
        attemptId: await insertLoginAttempt(tx, { phone, clientIp, succeeded: false, settled: false, now }),
      };
    });
  }

  return {
    /**
     * Refuses the try when the phone or the IP must still wait; otherwise records it, unsettled,
     * and returns its id for `succeeded` / `failed`. Only failures count, per phone and per IP, so
     * simultaneous correct logins (one account on several devices, many people behind one address)
     * never throttle each other. Racing guesses at one phone are held back instead: while the tries
     * in flight could reach the first slow-down, the next one waits (up to 20 s) until they are
     * settled. Check and record are one transaction under per-phone and per-IP locks.
     * @throws AppError LOGIN_THROTTLED | LOGIN_LOCKED, with the wait in the message
     */
    async begin(phone: string, clientIp: string): Promise<number> {
      const startedAt = Date.now();
      for (;;) {
        const outcome = await tryBegin(phone, clientIp);
        if (outcome.attemptId !== null) return outcome.attemptId;
        // Tries in flight could use up the phone's failure budget: wait (real time, bounded) until
        // they are settled instead of refusing, so simultaneous correct logins all go through.
        if (Date.now() - startedAt > IN_FLIGHT_WAIT_MS) {
          throw new AppError(
            ErrorCode.LOGIN_THROTTLED,
            TEXTS.loginThrottled(formatWait(LOGIN_PHONE_DELAYS_MS[3])),
          );
        }
        await sleep(IN_FLIGHT_POLL_MS);
      }
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
