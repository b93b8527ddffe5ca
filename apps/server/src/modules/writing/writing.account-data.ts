import type { Database, Kysely } from '@kyfw/db';
import { cancelJobByKey } from '../../jobs/index.ts';
import { deleteAccountWritings, listWritingsForExport, lockWritingsOf } from './writing.repo.ts';
import type { WritingRuntime } from './writing.service.ts';
import { TEXTS } from './writing.texts.ts';

/**
 * A student's AI-writing drafts — topic, requirements (often a task book's text), outline,
 * abstract, references and every written section — are personal data. "Export my data" lists them;
 * when the account is deleted (or closed for inactivity), inside its deletion transaction (after
 * the orders module locked the account's orders, DELETION_RANK.service): a paid full text not yet
 * delivered is stopped (its job cancelled) and its order refunded in full, a revision waiting or
 * running is stopped, and then every draft row is deleted. The orders and payments stay with the
 * orders module (kept, de-identified); LLM usage rows keep only the account id, as an account of
 * spending.
 */
/** What this module needs of the accounts module's lifecycle hooks (services.accounts.hooks). */
interface AccountLifecycleHooks {
  onDeletion(
    name: string,
    hook: (tx: Kysely<Database>, userId: string, context: { status: 'deleted' | 'closed' }) => Promise<void>,
  ): void;
  addExportSection(name: string, section: (db: Kysely<Database>, userId: string) => Promise<unknown>): void;
}

export function registerWritingAccountHooks(hooks: AccountLifecycleHooks, rt: WritingRuntime): void {
  hooks.onDeletion('writing', async (tx, userId, { status }) => {
    await stopWritingsOfErasedAccount(rt, tx, userId, status);
    await deleteAccountWritings(tx, userId);
  });
  hooks.addExportSection('writings', listWritingsForExport);
}

async function stopWritingsOfErasedAccount(
  rt: Pick<WritingRuntime, 'orders'>,
  tx: Kysely<Database>,
  userId: string,
  erasure: 'deleted' | 'closed',
): Promise<void> {
  const texts =
    erasure === 'deleted'
      ? { reason: TEXTS.refundDeletedAccount, statusText: TEXTS.deletedAccountStatus }
      : { reason: TEXTS.refundClosedAccount, statusText: TEXTS.closedAccountStatus };
  for (const w of await lockWritingsOf(tx, userId)) {
    // A revision waiting for (or held by) a worker: its job goes; nothing was paid for it alone.
    if (w.revision?.state === 'running' && w.revision.queueKey) await cancelJobByKey(tx, w.revision.queueKey);
    if (w.status !== 'writing' || !w.orderId) continue;
    const orderId = w.orderId;
    const stop = async () => {
      await cancelJobByKey(tx, `writing:${orderId}`);
      return true;
    };
    const order = await rt.orders.getOrder(orderId, { tx });
    if (order && order.payStatus === 1 && !order.autoRefund)
      await rt.orders.refundUndelivered(orderId, { tx, ...texts, update: stop });
    else await stop();
  }
}
