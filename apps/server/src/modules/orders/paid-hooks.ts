import type { Database, Kysely, ServiceType } from '@kyfw/db';
import type { OrderView } from './orders.view.ts';

/**
 * What a service does when one of its orders becomes paid (e.g. the check service enqueues the
 * check job). Register at import time of the service file:
 *
 *   onPaid('check', async ({ tx, order }) => {
 *     await enqueue(tx, checkJob, { checkId: order.serviceRef }, { dedupeKey: `check:${order.orderId}` });
 *   });
 *
 * The handler runs inside the transaction that marks the order paid (use `tx`, never another
 * connection), behind a savepoint: if it throws, its writes are rolled back, the payment is still
 * recorded, and the reconciliation job calls it again later (within about a minute) until it
 * succeeds. It runs once per order when it succeeds; still, make it idempotent (dedupe keys).
 */
export type PaidHandler = (ctx: {
  tx: Kysely<Database>;
  /** The order as it is now paid (orderId, orderNo, serviceRef, meta, quantity, amountFen, paidAt, …). */
  order: OrderView;
  userId: string;
}) => Promise<void>;

const handlers = new Map<ServiceType, PaidHandler[]>();

export function onPaid(serviceType: ServiceType, handler: PaidHandler): () => void {
  const list = handlers.get(serviceType) ?? [];
  list.push(handler);
  handlers.set(serviceType, list);
  return () => {
    const current = handlers.get(serviceType) ?? [];
    handlers.set(
      serviceType,
      current.filter((h) => h !== handler),
    );
  };
}

export function paidHandlersOf(serviceType: ServiceType): readonly PaidHandler[] {
  return handlers.get(serviceType) ?? [];
}
