import type { SendLimit } from './accounts.policy.ts';

export interface LimitHit {
  limit: SendLimit;
  /** How long until one more event is allowed. */
  waitMs: number;
}

/**
 * Sliding-window check: `times` are earlier events (newest first, any order works). Returns the
 * broken limit that lasts longest, or null when one more event fits every limit.
 */
export function findLimitHit(
  times: readonly Date[],
  limits: readonly SendLimit[],
  now: Date,
): LimitHit | null {
  const sorted = [...times].map((t) => t.getTime()).sort((a, b) => b - a);
  let worst: LimitHit | null = null;
  for (const limit of limits) {
    const inWindow = sorted.filter((t) => t > now.getTime() - limit.windowMs);
    if (inWindow.length < limit.max) continue;
    // The event that must leave the window before another fits: the max-th newest.
    const waitMs = inWindow[limit.max - 1] + limit.windowMs - now.getTime();
    if (!worst || waitMs > worst.waitMs) worst = { limit, waitMs };
  }
  return worst;
}

/** The longest window of a set of limits (how far back to look). */
export function longestWindow(limits: readonly SendLimit[]): number {
  return Math.max(...limits.map((l) => l.windowMs));
}
