import { randomInt } from 'node:crypto';
import type { PayChannel } from './payment.types.ts';
import type { SandboxFaults, SandboxNotifier } from './sandbox-notifier.ts';
import type { SandboxOrder, SandboxStore } from './sandbox-store.ts';

/** What the two protocol sandboxes and the pay page share. */
export interface SandboxContext {
  store: SandboxStore;
  notifier: SandboxNotifier;
  faults: Record<PayChannel, SandboxFaults>;
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
export function takeApiFault(ctx: SandboxContext, channel: PayChannel): boolean {
  const faults = ctx.faults[channel];
  if (faults.failApiNext <= 0) return false;
  faults.failApiNext--;
  return true;
}

/** Consumes one `refuseRefundNext` fault; true when this refund request must be refused. */
export function takeRefundRefusal(ctx: SandboxContext, channel: PayChannel): boolean {
  const faults = ctx.faults[channel];
  if (faults.refuseRefundNext <= 0) return false;
  faults.refuseRefundNext--;
  return true;
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
