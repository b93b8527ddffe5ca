import type { OrderActor, OrderStatus } from '@kyfw/db';

/**
 * The order state machine. Every status change goes through `assertTransition` and is written to
 * order_transitions in the same transaction as the UPDATE, which is itself conditional on the old
 * status (`... where status = from`), so two racing writers cannot both move an order.
 *
 *   pending_payment -> paid | cancelled | expired
 *   paid            -> processing | done | refunded
 *   processing      -> done | refunded
 *   done            -> refunded
 *   expired         -> paid      (only when the platform says the payment was made before expire_at
 *                                 and we learn it late: a lost notification after the expiry job ran)
 *   cancelled, refunded: final
 *
 * A payment arriving for a cancelled order, an expired order after its time, or an order already
 * paid by another transaction does not move the order: it is recorded and refunded automatically.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending_payment: ['paid', 'cancelled', 'expired'],
  paid: ['processing', 'done', 'refunded'],
  processing: ['done', 'refunded'],
  done: ['refunded'],
  expired: ['paid'],
  cancelled: [],
  refunded: [],
};

/** Who may make which change (defence in depth: a user can never mark anything paid). */
const ACTORS_ALLOWED: Readonly<Partial<Record<OrderStatus, readonly OrderActor[]>>> = {
  paid: ['provider', 'system', 'operator'],
  cancelled: ['user', 'system', 'operator'],
  expired: ['system'],
  processing: ['system', 'operator'],
  done: ['system', 'operator'],
  refunded: ['system', 'operator'],
};

/** Statuses in which the order's money has been received (and not fully refunded). */
export const PAID_STATUSES: readonly OrderStatus[] = ['paid', 'processing', 'done'];

export function isPaidStatus(status: OrderStatus): boolean {
  return PAID_STATUSES.includes(status);
}

export function canTransition(from: OrderStatus, to: OrderStatus, actor?: OrderActor): boolean {
  if (!ORDER_TRANSITIONS[from].includes(to)) return false;
  return actor === undefined || (ACTORS_ALLOWED[to]?.includes(actor) ?? false);
}

export class InvalidTransitionError extends Error {
  override readonly name = 'InvalidTransitionError';
  readonly from: OrderStatus;
  readonly to: OrderStatus;

  constructor(from: OrderStatus, to: OrderStatus, actor: OrderActor) {
    super(`order transition ${from} -> ${to} by ${actor} is not allowed`);
    this.from = from;
    this.to = to;
  }
}

/** @throws InvalidTransitionError when the state machine (or the actor rule) forbids the change. */
export function assertTransition(from: OrderStatus, to: OrderStatus, actor: OrderActor): void {
  if (!canTransition(from, to, actor)) throw new InvalidTransitionError(from, to, actor);
}
