import { randomUUID } from 'node:crypto';
import type { FetchFn } from './http.ts';
import type { PayChannel } from './payment.types.ts';
import type { SandboxFaultBook } from './sandbox-faults.repo.ts';
import type { NotificationStatus, SandboxOrder, SandboxStore } from './sandbox-store.ts';

/**
 * Delivers the sandbox platforms' payment notifications to the order's notify_url the way the
 * platforms do: at least once, redelivered on a schedule until acknowledged, with faults a test
 * (or a person through /__dev/pay/faults) can switch on.
 */

/**
 * WeChat Pay's real schedule (15s/15s/30s/3m/10m/20m/30m/30m/30m/60m/3h/3h/3h/6h/6h) compressed
 * tenfold: the delays before the 2nd, 3rd, … attempt. Configurable via PAY_SANDBOX_NOTIFY_RETRY_MS.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  1_500, 1_500, 3_000, 18_000, 60_000, 120_000, 180_000, 180_000, 180_000, 360_000, 1_080_000, 1_080_000,
  1_080_000, 2_160_000, 2_160_000,
];

/** One HTTP request a channel builds for an attempt, and how it recognises an acknowledgement. */
export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  isAck(status: number, body: string): boolean;
}

export type DeliveryBuilder = (order: SandboxOrder) => DeliveryRequest;

/** Faults for one channel; each counter is consumed by the next notifications/attempts/calls. */
export interface SandboxFaults {
  /** The next N delivery attempts fail in transit (nothing is sent; the retry schedule applies). */
  failNext: number;
  /** The next N payment notifications are lost: never sent (recover them by querying). */
  dropNext: number;
  /** The next N payment notifications are delivered twice. */
  duplicateNext: number;
  /** Deliver the duplicates at the same time (a race) instead of one after the other. */
  duplicateConcurrently: boolean;
  /** Wait this long before the first delivery of each notification. */
  delayMs: number;
  /** The next N API calls (create/query/close/refund) answer with a platform system error. */
  failApiNext: number;
  /**
   * The next N refund requests are refused for good, as the platforms do when the merchant's
   * balance cannot cover them (WeChat Pay `NOT_ENOUGH`, Alipay `ACQ.SELLER_BALANCE_NOT_ENOUGH`).
   */
  refuseRefundNext: number;
}

export function noFaults(): SandboxFaults {
  return {
    failNext: 0,
    dropNext: 0,
    duplicateNext: 0,
    duplicateConcurrently: false,
    delayMs: 0,
    failApiNext: 0,
    refuseRefundNext: 0,
  };
}

/** What the faults decided for one payment's notification (`takeFate`, before the payment is booked). */
export interface NotificationFate {
  channel: PayChannel;
  delayMs: number;
  /** A `dropNext` was taken: the notification is lost. */
  drop: boolean;
  /** A `duplicateNext` was taken: the notification is delivered twice. */
  duplicate?: 'sequential' | 'concurrent';
}

/** One attempt, as the sandbox saw it (kept in memory for tests and the dev controls). */
export interface DeliveryRecord {
  channel: PayChannel;
  orderNo: string;
  notificationId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** ISO-8601. */
  at: string;
  outcome: 'acked' | 'not-acked' | 'network-error' | 'simulated-failure' | 'dropped';
  httpStatus?: number;
}

/** Minimal pino-compatible logger. Never given bodies, headers or keys. */
export interface SandboxLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface NotifierOptions {
  store: SandboxStore;
  builders: Record<PayChannel, DeliveryBuilder>;
  faults: SandboxFaultBook;
  retryScheduleMs?: readonly number[];
  fetch?: FetchFn;
  logger?: SandboxLogger;
  /** Per-attempt timeout, default 5 s. */
  timeoutMs?: number;
}

type Waiter = { resolve: (status: NotificationStatus) => void };

export class SandboxNotifier {
  readonly deliveries: DeliveryRecord[] = [];
  readonly #options: NotifierOptions;
  readonly #schedule: readonly number[];
  readonly #fetch: FetchFn;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #running = new Map<string, Promise<void>>();
  readonly #waiters = new Map<string, Waiter[]>();
  #closed = false;

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.#schedule = options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /**
   * Takes the faults the next payment's notification meets (a drop, else a duplicate, and the
   * delay) before the payment is booked: the books' `change` runs no query of its own. Give the
   * fate back (`returnFate`) when the payment is then refused.
   */
  async takeFate(channel: PayChannel): Promise<NotificationFate> {
    const faults = this.#options.faults;
    const { delayMs, duplicateConcurrently } = (await faults.read())[channel];
    if (await faults.take(channel, 'dropNext')) return { channel, delayMs, drop: true };
    if (await faults.take(channel, 'duplicateNext'))
      return {
        channel,
        delayMs,
        drop: false,
        duplicate: duplicateConcurrently ? 'concurrent' : 'sequential',
      };
    return { channel, delayMs, drop: false };
  }

  /** Returns the counted faults of a fate no payment used. */
  async returnFate(fate: NotificationFate): Promise<void> {
    if (fate.drop) await this.#options.faults.giveBack(fate.channel, 'dropNext');
    else if (fate.duplicate) await this.#options.faults.giveBack(fate.channel, 'duplicateNext');
  }

  /**
   * Gives a just-paid order its notification, as `fate` decided (inside the books' `change` that
   * pays it). `start` it once the payment is written.
   */
  prepare(order: SandboxOrder, fate: NotificationFate): void {
    const id = order.channel === 'wx' ? `EV-${randomUUID()}` : randomUUID().replaceAll('-', '');
    order.notification = { id, status: 'pending', attempts: 0, nextAt: Date.now() + fate.delayMs };
    if (fate.drop) {
      order.notification.status = 'dropped';
      this.#record(order, 'dropped');
    } else if (fate.duplicate) {
      order.notification.duplicate = fate.duplicate;
    }
  }

  /** Delivers the notification `prepare` gave to the (written) order. */
  start(order: SandboxOrder): void {
    if (order.notification?.status === 'pending') this.#schedule_(order);
    else this.#settle(order);
  }

  /** Schedules every pending notification in the books (after a restart). */
  async resume(): Promise<void> {
    for (const order of await this.#options.store.listPending()) this.#schedule_(order);
  }

  /** Resolves when the order's notification is acknowledged, dropped or out of retries. */
  settled(channel: PayChannel, orderNo: string): Promise<NotificationStatus> {
    const key = `${channel}:${orderNo}`;
    return new Promise((resolve, reject) => {
      // Waiting first, then reading: a settlement between the read and the wait is not missed.
      const waiter: Waiter = { resolve };
      this.#waiters.set(key, [...(this.#waiters.get(key) ?? []), waiter]);
      const stopWaiting = () =>
        this.#waiters.set(
          key,
          (this.#waiters.get(key) ?? []).filter((w) => w !== waiter),
        );
      this.#options.store.get(channel, orderNo).then((order) => {
        const status = order?.notification?.status;
        if (status === 'pending') return;
        stopWaiting();
        if (!status) reject(new Error('no notification for this order'));
        else resolve(status);
      }, reject);
    });
  }

  /**
   * Writes the notification's state into the books. Only the notification: the rest of the order
   * (a refund made meanwhile, perhaps by another process) is kept as it is.
   */
  #saveNotification(order: SandboxOrder): Promise<void> {
    const notification = order.notification ? { ...order.notification } : undefined;
    return this.#options.store.change(order.channel, order.orderNo, (current) => {
      if (current && notification) current.notification = notification;
    });
  }

  /** Stops all timers and waits for deliveries in flight. Pending notifications stay in the books. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#running.values()]);
  }

  #schedule_(order: SandboxOrder): void {
    if (this.#closed || !order.notification) return;
    const key = keyOf(order);
    clearTimeout(this.#timers.get(key));
    const delay = Math.max(0, order.notification.nextAt - Date.now());
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      const run = this.#attempt(order).finally(() => this.#running.delete(key));
      this.#running.set(key, run);
    }, delay);
    timer.unref();
    this.#timers.set(key, timer);
  }

  async #attempt(order: SandboxOrder): Promise<void> {
    const notification = order.notification;
    if (notification?.status !== 'pending' || this.#closed) return;
    notification.attempts++;
    let acked = false;
    if (await this.#options.faults.take(order.channel, 'failNext')) {
      this.#record(order, 'simulated-failure');
    } else {
      const copies = notification.duplicate ? 2 : 1;
      if (notification.duplicate === 'concurrent') {
        const results = await Promise.all([this.#send(order), this.#send(order)]);
        acked = results.some(Boolean);
      } else {
        for (let i = 0; i < copies; i++) acked = (await this.#send(order)) || acked;
      }
      delete notification.duplicate;
    }
    if (this.#closed && !acked) {
      // Shutting down mid-attempt: keep it pending for the next start, retried at once.
      await this.#saveNotification(order);
      return;
    }
    if (acked) {
      notification.status = 'acked';
    } else if (notification.attempts > this.#schedule.length) {
      notification.status = 'exhausted';
      this.#options.logger?.warn(
        { channel: order.channel, orderNo: order.orderNo, attempts: notification.attempts },
        'payment sandbox: notification never acknowledged, giving up',
      );
    } else {
      notification.nextAt = Date.now() + this.#schedule[notification.attempts - 1]!;
    }
    await this.#saveNotification(order);
    if (notification.status === 'pending') this.#schedule_(order);
    else this.#settle(order);
  }

  /** One HTTP delivery; true when the receiver acknowledged it the way the platform requires. */
  async #send(order: SandboxOrder): Promise<boolean> {
    const request = this.#options.builders[order.channel](order);
    try {
      const response = await this.#fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5_000),
      });
      const text = await response.text();
      const acked = request.isAck(response.status, text);
      this.#record(order, acked ? 'acked' : 'not-acked', response.status);
      return acked;
    } catch {
      this.#record(order, 'network-error');
      return false;
    }
  }

  #record(order: SandboxOrder, outcome: DeliveryRecord['outcome'], httpStatus?: number): void {
    const record: DeliveryRecord = {
      channel: order.channel,
      orderNo: order.orderNo,
      notificationId: order.notification?.id ?? '',
      attempt: order.notification?.attempts ?? 0,
      at: new Date().toISOString(),
      outcome,
    };
    if (httpStatus !== undefined) record.httpStatus = httpStatus;
    this.deliveries.push(record);
    if (this.deliveries.length > 1000) this.deliveries.splice(0, this.deliveries.length - 1000);
    this.#options.logger?.info(
      { channel: order.channel, orderNo: order.orderNo, attempt: record.attempt, outcome, httpStatus },
      'payment sandbox: notification attempt',
    );
  }

  #settle(order: SandboxOrder): void {
    const key = keyOf(order);
    const status = order.notification?.status;
    const waiters = this.#waiters.get(key);
    if (!waiters || !status || status === 'pending') return;
    this.#waiters.delete(key);
    for (const w of waiters) w.resolve(status);
  }
}

function keyOf(order: SandboxOrder): string {
  return `${order.channel}:${order.orderNo}`;
}
