import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PayChannel } from './payment.types.ts';

/**
 * The sandbox platforms' own books: the orders they were asked to create, their payments,
 * refunds and pending notifications. In memory, and when given a directory also in one JSON file
 * rewritten atomically after every change, so a restart of the process loses nothing (a paid
 * order stays paid, an unacknowledged notification is delivered after the restart).
 */

/** Platform-side order state. Alipay's protocol view (WAIT_BUYER_PAY, TRADE_CLOSED, …) derives from it. */
export type SandboxOrderState = 'NOTPAY' | 'SUCCESS' | 'REFUND' | 'CLOSED';

export interface SandboxRefund {
  refundNo: string;
  refundId: string;
  amountFen: number;
  reason: string;
  /** ISO-8601. */
  createdAt: string;
}

export type NotificationStatus = 'pending' | 'acked' | 'exhausted' | 'dropped';

export interface SandboxNotification {
  /** WeChat event id / Alipay notify_id; the same on every redelivery. */
  id: string;
  status: NotificationStatus;
  /** Delivery attempts made so far (simulated failures included). */
  attempts: number;
  /** When the next attempt is due (ms since the epoch), while pending. */
  nextAt: number;
  /** Deliver the next attempt twice (fault control). */
  duplicate?: 'sequential' | 'concurrent';
  /** WeChat: the encrypted notification body, fixed at payment; re-signed on every attempt. */
  body?: string;
}

export interface SandboxOrder {
  channel: PayChannel;
  orderNo: string;
  amountFen: number;
  description: string;
  /** ISO-8601: payment is refused from this instant on. */
  expireAt: string;
  notifyUrl: string;
  /** ISO-8601. */
  createdAt: string;
  /** The exact time_expire text we were given, to recognise a repeated identical create. */
  timeExpireText: string;
  state: SandboxOrderState;
  /** Alipay: the trade exists only once the QR code was scanned (the page opened) or paid. */
  scanned: boolean;
  transactionId?: string;
  /** ISO-8601. */
  paidAt?: string;
  /** WeChat openid / Alipay buyer_id of the simulated payer. */
  payerId?: string;
  /** ISO-8601. */
  closedAt?: string;
  refunds: SandboxRefund[];
  notification?: SandboxNotification;
}

interface StoreFile {
  version: 1;
  orders: SandboxOrder[];
}

export class SandboxStore {
  readonly #orders = new Map<string, SandboxOrder>();
  readonly #file: string | undefined;

  /** @param stateDir where `orders.json` lives; in memory only when undefined. */
  constructor(stateDir?: string) {
    if (!stateDir) return;
    mkdirSync(stateDir, { recursive: true });
    this.#file = join(stateDir, 'orders.json');
    let text: string | undefined;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      const data = JSON.parse(text) as StoreFile;
      if (data.version !== 1 || !Array.isArray(data.orders)) throw new Error(`${this.#file}: unknown format`);
      for (const order of data.orders) this.#orders.set(key(order.channel, order.orderNo), order);
    }
  }

  get(channel: PayChannel, orderNo: string): SandboxOrder | undefined {
    return this.#orders.get(key(channel, orderNo));
  }

  /** Every order, oldest first. */
  list(): SandboxOrder[] {
    return [...this.#orders.values()];
  }

  /** Inserts or replaces an order and saves. */
  put(order: SandboxOrder): void {
    this.#orders.set(key(order.channel, order.orderNo), order);
    this.save();
  }

  /** Writes the books (after mutating an order in place). Atomic: temp file + rename. */
  save(): void {
    if (!this.#file) return;
    const data: StoreFile = { version: 1, orders: this.list() };
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data, null, 1), { mode: 0o600 });
    renameSync(temp, this.#file);
  }
}

function key(channel: PayChannel, orderNo: string): string {
  return `${channel}:${orderNo}`;
}
