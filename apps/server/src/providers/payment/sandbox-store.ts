import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, type Kysely, sql } from '@kyfw/db';
import type { PayChannel } from './payment.types.ts';

/**
 * The sandbox platforms' own books: the orders they were asked to create, their payments,
 * refunds and pending notifications. The app keeps them in the database, where every process of
 * the scaled mode sees the same books and a restart loses nothing (a paid order stays paid, an
 * unacknowledged notification is delivered after the restart); without a database (the
 * provider's own tests) in memory and a JSON file.
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

/** Sets the order to write (a new one, or a replacement) from inside `change`. */
export type PutOrder = (order: SandboxOrder) => void;

/**
 * The sandbox platforms' books. Every read is of the current state (another process may have
 * changed it); every change goes through `change`, which holds off other changes of the same order
 * (in any process sharing the books) while it runs.
 */
export interface SandboxStore {
  get(channel: PayChannel, orderNo: string): Promise<SandboxOrder | undefined>;
  /** Orders whose notification is still pending (to resume after a start). */
  listPending(): Promise<SandboxOrder[]>;
  /**
   * Runs `fn` on the order's current state (undefined when there is none) with every other change
   * of that order held off, then writes the order back if `fn` changed it, or writes what `fn`
   * gave to `put`. `fn` is synchronous: nothing slow happens while the order is held. A throw
   * writes nothing.
   */
  change<T>(
    channel: PayChannel,
    orderNo: string,
    fn: (order: SandboxOrder | undefined, put: PutOrder) => T,
  ): Promise<T>;
}

/** Runs `fn` on a copy of `current`; what to write afterwards (undefined: nothing changed). */
function applyChange<T>(
  current: SandboxOrder | undefined,
  fn: (order: SandboxOrder | undefined, put: PutOrder) => T,
): { result: T; write: SandboxOrder | undefined } {
  const before = current === undefined ? undefined : JSON.stringify(current);
  const order = current === undefined ? undefined : (JSON.parse(before!) as SandboxOrder);
  let replacement: SandboxOrder | undefined;
  const result = fn(order, (o) => {
    replacement = o;
  });
  if (replacement) return { result, write: replacement };
  return { result, write: order !== undefined && JSON.stringify(order) !== before ? order : undefined };
}

/**
 * Books in memory, and when given a directory also in one JSON file rewritten atomically after
 * every change: one process only (the provider's own tests, a process without a database). The
 * app keeps its books in the database (`databaseSandboxStore`).
 */
export function fileSandboxStore(stateDir?: string): SandboxStore {
  const orders = new Map<string, SandboxOrder>();
  let file: string | undefined;
  if (stateDir) {
    mkdirSync(stateDir, { recursive: true });
    file = join(stateDir, 'orders.json');
    for (const order of readBooksFile(file)) orders.set(key(order.channel, order.orderNo), order);
  }
  let chain: Promise<unknown> = Promise.resolve();
  function save(): void {
    if (!file) return;
    const data: StoreFile = { version: 1, orders: [...orders.values()] };
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data, null, 1), { mode: 0o600 });
    renameSync(temp, file);
  }
  const copy = (order: SandboxOrder | undefined) =>
    order ? (structuredClone(order) as SandboxOrder) : undefined;
  return {
    async get(channel, orderNo) {
      return copy(orders.get(key(channel, orderNo)));
    },
    async listPending() {
      return [...orders.values()].filter((o) => o.notification?.status === 'pending').map((o) => copy(o)!);
    },
    change(channel, orderNo, fn) {
      const run = chain.then(() => {
        const { result, write } = applyChange(orders.get(key(channel, orderNo)), fn);
        if (write) {
          orders.set(key(write.channel, write.orderNo), write);
          save();
        }
        return result;
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
}

/** The orders of a books file written by fileSandboxStore (an earlier version's books); none when absent. */
export function readBooksFile(file: string): SandboxOrder[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const data = JSON.parse(text) as StoreFile;
  if (data.version !== 1 || !Array.isArray(data.orders)) throw new Error(`${file}: unknown format`);
  return data.orders;
}

/**
 * Books in the database (payment_sandbox_orders, migration 0059), shared by every process on it:
 * a change runs in a transaction under an advisory lock of the order (which also serialises two
 * creations of the same order). `legacyFile`: the JSON books of an earlier version, imported once
 * (orders already in the database win) and renamed to `.imported`.
 */
export async function databaseSandboxStore(
  db: Kysely<Database>,
  options: { legacyFile?: string; now?: () => number } = {},
): Promise<SandboxStore> {
  const now = () => new Date(options.now ? options.now() : Date.now());
  const parse = (data: unknown): SandboxOrder =>
    (typeof data === 'string' ? JSON.parse(data) : data) as SandboxOrder;
  if (options.legacyFile) {
    const legacy = readBooksFile(options.legacyFile);
    for (const order of legacy) {
      await db
        .insertInto('payment_sandbox_orders')
        .values({
          channel: order.channel,
          order_no: order.orderNo,
          data: JSON.stringify(order),
          created_at: now(),
          updated_at: now(),
        })
        .onConflict((oc) => oc.columns(['channel', 'order_no']).doNothing())
        .execute();
    }
    if (legacy.length > 0) renameSync(options.legacyFile, `${options.legacyFile}.imported`);
  }
  const read = async (from: Kysely<Database>, channel: PayChannel, orderNo: string) => {
    const row = await from
      .selectFrom('payment_sandbox_orders')
      .select('data')
      .where('channel', '=', channel)
      .where('order_no', '=', orderNo)
      .executeTakeFirst();
    return row ? parse(row.data) : undefined;
  };
  return {
    get: (channel, orderNo) => read(db, channel, orderNo),
    async listPending() {
      const rows = await db
        .selectFrom('payment_sandbox_orders')
        .select('data')
        .where(sql<boolean>`data->'notification'->>'status' = 'pending'`)
        .execute();
      return rows.map((r) => parse(r.data));
    },
    change(channel, orderNo, fn) {
      return db.transaction().execute(async (tx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`payment-sandbox:${key(channel, orderNo)}`}))`.execute(
          tx,
        );
        const { result, write } = applyChange(await read(tx, channel, orderNo), fn);
        if (write) {
          const at = now();
          await tx
            .insertInto('payment_sandbox_orders')
            .values({
              channel: write.channel,
              order_no: write.orderNo,
              data: JSON.stringify(write),
              created_at: at,
              updated_at: at,
            })
            .onConflict((oc) =>
              oc
                .columns(['channel', 'order_no'])
                .doUpdateSet({ data: JSON.stringify(write), updated_at: at }),
            )
            .execute();
        }
        return result;
      });
    },
  };
}

function key(channel: PayChannel, orderNo: string): string {
  return `${channel}:${orderNo}`;
}
