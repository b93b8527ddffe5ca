import type { Database, Kysely } from '@kyfw/db';

/**
 * Extension points for modules that keep data about an account (orders, payments, invoices,
 * addresses, check reports). Register in your module's `hooks(services)` step (modules/types.ts):
 *
 *   services.accounts.hooks.onDeletion('orders', async (tx, userId) => { ...de-identify orders... });
 *   services.accounts.hooks.addExportSection('orders', async (db, userId) => listOrdersForExport(db, userId));
 *
 * Deletion hooks run inside the deletion's transaction, before the account's own data is erased:
 * throw to abort the deletion (nothing is erased then). The third argument gives the app's database
 * handle, the deletion's time and kind. Order and payment records are to be kept as
 * the law requires but de-identified (recipient, address, phone, e-mail, invoice details cleared);
 * their user_id may stay, since the account row itself no longer identifies anyone.
 *
 * Lock order. The deletion holds the account's users row (FOR NO KEY UPDATE) from the start; the hooks
 * then run in ascending `rank` (ties: registration order), and their row locks must follow the
 * order every other transaction takes them in (modules/orders/README.md, "Lock order"):
 * users -> orders -> the services' records (checks, …) -> payments -> refunds -> entitlements.
 * So the orders module's hook (DELETION_RANK.orders) runs first and locks all the account's orders
 * before a service's hook (DELETION_RANK.service, the default) touches the records those orders
 * pay for. Registration order is import order and says nothing; never rely on it.
 */
export type AccountDeletionHook = (
  tx: Kysely<Database>,
  userId: string,
  context: AccountDeletionContext,
) => Promise<void>;

/** What a deletion hook may need besides the transaction. */
export interface AccountDeletionContext {
  /**
   * The app's database handle (not the transaction). Never write through it: that would not be
   * part of the deletion (and would wait for the deletion's own locks); pass `tx` to other APIs.
   */
  db: Kysely<Database>;
  /** The deletion's time. */
  now: Date;
  /** 'deleted' (the user's request) or 'closed' (inactivity). */
  status: 'deleted' | 'closed';
}

/** Returns the section of the user's data export (any JSON value); keys become top-level fields. */
export type AccountExportSection = (db: Kysely<Database>, userId: string) => Promise<unknown>;

/** Bytes of uploaded files one module keeps in storage for the account (the upload quota sums them). */
export type AccountStorageUse = (db: Kysely<Database>, userId: string) => Promise<number>;

/** Where a deletion hook runs (ascending): the lock order of the rows it touches. */
export const DELETION_RANK = {
  /** The orders module: locks every order of the account first (the orders come before services). */
  orders: 10,
  /** A service's own records (checks, …), locked after the orders that pay for them. */
  service: 100,
} as const;

/**
 * The account lifecycle hooks of one accounts service (built by createServices): other modules
 * register on it from their `hooks(services)` step; the deletion and the export run them.
 */
export interface AccountHooks {
  /** Adds (or replaces, by name) a hook run when an account is deleted or closed. */
  onDeletion(name: string, hook: AccountDeletionHook, options?: { rank?: number }): void;
  /** Adds (or replaces, by name) a section of "export my data". */
  addExportSection(name: string, section: AccountExportSection): void;
  /** Adds (or replaces, by name) a module's share of the account's stored uploads (storage-quota.ts). */
  addStorageUse(name: string, use: AccountStorageUse): void;
  runDeletion(tx: Kysely<Database>, userId: string, context: AccountDeletionContext): Promise<void>;
  collectExport(db: Kysely<Database>, userId: string): Promise<Record<string, unknown>>;
  /** Bytes of uploads the account keeps, over every module that registered a storage use. */
  storageUsed(db: Kysely<Database>, userId: string): Promise<number>;
}

export function createAccountHooks(): AccountHooks {
  const deletionHooks = new Map<string, { hook: AccountDeletionHook; rank: number }>();
  const exportSections = new Map<string, AccountExportSection>();
  const storageUses = new Map<string, AccountStorageUse>();
  return {
    onDeletion(name, hook, options = {}) {
      deletionHooks.set(name, { hook, rank: options.rank ?? DELETION_RANK.service });
    },
    addExportSection(name, section) {
      exportSections.set(name, section);
    },
    addStorageUse(name, use) {
      storageUses.set(name, use);
    },
    async runDeletion(tx, userId, context) {
      // Array.prototype.sort is stable: equal ranks keep their registration order.
      const ordered = [...deletionHooks.values()].sort((a, b) => a.rank - b.rank);
      for (const { hook } of ordered) await hook(tx, userId, context);
    },
    async collectExport(db, userId) {
      const out: Record<string, unknown> = {};
      for (const [name, section] of exportSections) out[name] = await section(db, userId);
      return out;
    },
    async storageUsed(db, userId) {
      let bytes = 0;
      for (const use of storageUses.values()) bytes += await use(db, userId);
      return bytes;
    },
  };
}
