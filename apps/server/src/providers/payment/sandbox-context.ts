import { randomInt } from 'node:crypto';
import type { PayChannel } from './payment.types.ts';
import type { SandboxFaultBook } from './sandbox-faults.repo.ts';
import type { SandboxNotifier } from './sandbox-notifier.ts';
import type { SandboxOrder, SandboxStore } from './sandbox-store.ts';

/** What the two protocol sandboxes and the pay page share. */
export interface SandboxContext {
  store: SandboxStore;
  notifier: SandboxNotifier;
  faults: SandboxFaultBook;
  /** The platforms' clock (ms); injectable so tests can move past expiry. */
  now: () => number;
  /** The URL a sandbox QR code encodes: the local 模拟支付 page for this order. */
  payPageUrl(channel: PayChannel, orderNo: string): string;
}

/** Whether the order can no longer be paid because its time is up. */
export function isExpired(order: SandboxOrder, nowMs: number): boolean {
  return nowMs >= Date.parse(order.expireAt);
}

/** Consumes one `failApiNext` fault; true when this API call must fail with a system error. */
export function takeApiFault(ctx: SandboxContext, channel: PayChannel): Promise<boolean> {
  return ctx.faults.take(channel, 'failApiNext');
}

/**
 * Runs a refund's booking with one `refuseRefundNext` fault taken beforehand (the books' `change`
 * runs no query of its own): `book(refuse)` refuses a new refund when `refuse` is true and calls
 * `used()` then; a fault the booking did not use (a repeated refund, an unknown order) is given back.
 */
export async function withRefundRefusal<T>(
  ctx: SandboxContext,
  channel: PayChannel,
  book: (refuse: boolean, used: () => void) => Promise<T>,
): Promise<T> {
  const refuse = await ctx.faults.take(channel, 'refuseRefundNext');
  let spent = false;
  try {
    return await book(refuse, () => {
      spent = true;
    });
  } finally {
    if (refuse && !spent) await ctx.faults.giveBack(channel, 'refuseRefundNext');
  }
}

/** `n` random decimal digits. */
export function randomDigits(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += randomInt(10).toString();
  return out;
}

/** Total refunded on an order, in fen. */
export function refundedFen(order: SandboxOrder): number {
  return order.refunds.reduce((sum, r) => sum + r.amountFen, 0);
}
