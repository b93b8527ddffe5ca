import { enqueue } from '../../jobs/index.ts';
import type { AccountHooks } from '../accounts/index.ts';
import {
  deidentifyAccountCommissions,
  listCommissionsForExport,
  listLooseAttachmentsForExport,
  lockAccountCommissions,
  sumAccountAttachmentBytes,
  updateCommission,
} from './commission.repo.ts';
import { type CommissionRuntime, PURGE_JOB } from './commission.runtime.ts';
import { TEXTS } from './commission.texts.ts';

/**
 * A commission's form and files are personal data. When the account is deleted (or closed), inside
 * the deletion's transaction: a paid commission not yet delivered is refunded in full (it can no
 * longer be delivered to anyone), open ones are cancelled, the forms are emptied and the file rows
 * dropped, and a job deletes the stored files. Orders and payments are the orders module's (kept,
 * de-identified). The export lists every commission with its form and files, and the attachments
 * not yet sent with a form.
 */
export function registerCommissionAccountHooks(hooks: AccountHooks, rt: CommissionRuntime): void {
  hooks.onDeletion('commission', async (tx, userId, { now }) => {
    for (const c of await lockAccountCommissions(tx, userId)) {
      if (c.status === 'processing' && c.order_id) {
        await rt.orders.refundUndelivered(c.order_id, {
          reason: TEXTS.erasedRefund,
          statusText: TEXTS.erasedStatus,
          tx,
        });
      }
      if (c.status !== 'done' && c.status !== 'cancelled')
        await updateCommission(tx, c.id, { status: 'cancelled', cancelled_at: now }, now);
    }
    const keys = await deidentifyAccountCommissions(tx, userId, now);
    if (keys.length > 0) await enqueue(tx, PURGE_JOB, { keys }, { maxAttempts: 5 });
  });
  hooks.addExportSection('commissions', (db, userId) => listCommissionsForExport(db, userId));
  // Uploaded for a form not sent (yet): kept a day (sweepLooseAttachments), and the account's meanwhile.
  hooks.addExportSection('commissionAttachments', (db, userId) => listLooseAttachmentsForExport(db, userId));
  hooks.addStorageUse('commission', sumAccountAttachmentBytes);
}
