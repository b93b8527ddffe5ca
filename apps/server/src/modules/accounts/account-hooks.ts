import type { Database, Kysely } from '@kyfw/db';

/**
 * Extension points for modules that keep data about an account (orders, payments, invoices,
 * addresses, check reports). Register at import time of your module's service file:
 *
 *   registerAccountDeletionHook('orders', async (tx, userId) => { ...de-identify orders... });
 *   registerAccountExportSection('orders', async (db, userId) => listOrdersForExport(db, userId));
 *
 * Deletion hooks run inside the deletion's transaction, before the account's own data is erased:
 * throw to abort the deletion (nothing is erased then). Order and payment records are to be kept as
 * the law requires but de-identified (recipient, address, phone, e-mail, invoice details cleared);
 * their user_id may stay, since the account row itself no longer identifies anyone.
 */
export type AccountDeletionHook = (tx: Kysely<Database>, userId: string) => Promise<void>;

/** Returns the section of the user's data export (any JSON value); keys become top-level fields. */
export type AccountExportSection = (db: Kysely<Database>, userId: string) => Promise<unknown>;

const deletionHooks = new Map<string, AccountDeletionHook>();
const exportSections = new Map<string, AccountExportSection>();

/** Adds (or replaces, by name) a hook run when an account is deleted or closed. */
export function registerAccountDeletionHook(name: string, hook: AccountDeletionHook): void {
  deletionHooks.set(name, hook);
}

/** Adds (or replaces, by name) a section of "export my data". */
export function registerAccountExportSection(name: string, section: AccountExportSection): void {
  exportSections.set(name, section);
}

export async function runAccountDeletionHooks(tx: Kysely<Database>, userId: string): Promise<void> {
  for (const hook of deletionHooks.values()) await hook(tx, userId);
}

export async function collectAccountExportSections(
  db: Kysely<Database>,
  userId: string,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, section] of exportSections) out[name] = await section(db, userId);
  return out;
}
