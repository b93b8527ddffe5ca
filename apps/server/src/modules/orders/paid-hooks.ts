import type { Database, Kysely, ServiceType } from '@kyfw/db';
import type { OrderView } from './orders.view.ts';

/**
 * What a service does when one of its orders becomes paid (e.g. the check service enqueues the
 * check job). Register in your module's `hooks(services)` step (modules/types.ts):
 *
 *   services.orders.onPaid('check', async ({ tx, order }) => {
 *     await enqueue(tx, checkJob, { checkId: order.serviceRef }, { dedupeKey: `check:${order.orderId}` });
 *   });
 *
 * The handler runs inside the transaction that marks the order paid (use `tx`, never another
 * connection), behind a savepoint: if it throws, its writes are rolled back, the payment is still
 * recorded, and the reconciliation job calls it again later (within about a minute) until it
 * succeeds. It runs once per order when it succeeds; still, make it idempotent (dedupe keys).
 *
 * When the service can no longer be delivered (e.g. the user deleted the record the order pays
 * for, or the account is gone), the handler returns `serviceUndeliverable(reason)` instead of
 * starting anything: its writes are rolled back, it is not called again, and the payment is
 * refunded in full automatically (the refund and the order's history carry `reason`). Lock your
 * record (`for update`) before deciding, so a concurrent deletion either waits for the payment or
 * is seen by it.
 */
export type PaidHandler = (ctx: {
  tx: Kysely<Database>;
  /** The order as it is now paid (orderId, orderNo, serviceRef, meta, quantity, amountFen, paidAt, …). */
  order: OrderView;
  userId: string;
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that starts its service returns nothing (async () => {…} is Promise<void>)
}) => Promise<void | ServiceUndeliverable>;

/** A handler's answer: this order's service can no longer be delivered; refund the payment. */
export interface ServiceUndeliverable {
  readonly undeliverable: true;
  /** Why, in Chinese (at most 80 characters): the refund's reason, shown in the order's history. */
  readonly reason: string;
  /**
   * What happened in a few words (at most 30 characters, e.g. 查重记录已删除): the order's status
   * reads '<statusText>，正在自动退款', then '…，已自动退款'. Default 服务无法提供.
   */
  readonly statusText?: string;
}

export function serviceUndeliverable(reason: string, statusText?: string): ServiceUndeliverable {
  return { undeliverable: true, reason, ...(statusText ? { statusText } : {}) };
}

export function isServiceUndeliverable(value: unknown): value is ServiceUndeliverable {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<ServiceUndeliverable>).undeliverable === true &&
    typeof (value as Partial<ServiceUndeliverable>).reason === 'string'
  );
}

/** The onPaid handlers of one orders service (built by createServices), per service type. */
export interface PaidHooks {
  /** Adds a handler; returns a function that removes it again. */
  onPaid(serviceType: ServiceType, handler: PaidHandler): () => void;
  handlersOf(serviceType: ServiceType): readonly PaidHandler[];
}

export function createPaidHooks(): PaidHooks {
  const registry = createRegistry<PaidHandler>();
  return { onPaid: registry.add, handlersOf: registry.handlersOf };
}

/** Handlers per service type, in the order they were added. */
function createRegistry<H>() {
  const handlers = new Map<ServiceType, H[]>();
  return {
    add(serviceType: ServiceType, handler: H): () => void {
      handlers.set(serviceType, [...(handlers.get(serviceType) ?? []), handler]);
      return () => {
        handlers.set(
          serviceType,
          (handlers.get(serviceType) ?? []).filter((h) => h !== handler),
        );
      };
    },
    handlersOf(serviceType: ServiceType): readonly H[] {
      return handlers.get(serviceType) ?? [];
    },
  };
}

/**
 * What a service does when an operator refunds everything left of one of its orders' payment: the
 * service ends (e.g. a commission leaves the 委托办理 queue and staff can no longer deliver on it).
 * Runs inside the transaction that records the refund, holding the order's lock (use `tx`); if it
 * throws, the refund is not recorded and the operator sees the error.
 */
export type RefundHandler = (ctx: {
  tx: Kysely<Database>;
  /** The order as it is before the refund (still paid, processing or done). */
  order: OrderView;
  userId: string;
  /** The refund's reason as the operator wrote it. */
  reason: string;
}) => Promise<void>;

/** The services' handlers of a full refund, per service type (orders.runtime.ts holds one). */
export interface RefundHooks {
  /** Adds a handler; returns a function that removes it again. */
  onRefunded(serviceType: ServiceType, handler: RefundHandler): () => void;
  handlersOf(serviceType: ServiceType): readonly RefundHandler[];
}

export function createRefundHooks(): RefundHooks {
  const registry = createRegistry<RefundHandler>();
  return { onRefunded: registry.add, handlersOf: registry.handlersOf };
}
