import { API_PREFIX } from '@kyfw/contracts';
import type { PayChannel } from '../../../providers/payment/index.ts';
import type { OrdersRuntime } from '../orders.runtime.ts';

/** QR codes one order may get per channel (each switch back to a channel makes a new one). */
export const MAX_ATTEMPTS_PER_CHANNEL = 20;
/** A QR code needs at least this long before the order expires, or paying it would race the expiry. */
export const MIN_PAY_WINDOW_MS = 30_000;
/** After a platform's time_expire, how long we still treat an unscanned Alipay QR code as payable (clock skew). */
export const EXPIRY_GRACE_MS = 2 * 60_000;
/** The status poll asks the platform itself at most this often per QR code, and not for brand-new ones. */
export const POLL_QUERY_INTERVAL_MS = 10_000;
export const POLL_QUERY_MIN_AGE_MS = 10_000;
/** Reconciliation leaves fresh QR codes to the notification. */
export const RECONCILE_MIN_AGE_MS = 30_000;
/** The platform's paid time may lag our expire_at by clock skew. */
export const PAID_IN_TIME_TOLERANCE_MS = 60_000;

export function notifyUrlOf(rt: OrdersRuntime, channel: PayChannel): string {
  return `${rt.publicBaseUrl}${API_PREFIX}/pay/notify/${channel}`;
}
