import { enqueue } from '../../jobs/index.ts';
import type { AccountHooks } from '../accounts/index.ts';
import {
  deidentifyAccountChecks,
  listAccountCheckFiles,
  listChecksForExport,
  sumAccountCheckFileBytes,
} from './account-checks.repo.ts';
import { clearAccountAddonKeys, listAccountAddonKeys } from './aigc/aigc-addon.repo.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { CHECK_PURGE_JOB, stopChecksOfErasedAccount } from './check.service.ts';
import { deleteRevisionsOfUser, listRevisionsForExport } from './revise/revise.repo.ts';

/**
 * The account's papers are personal data. When the account is deleted (or closed for inactivity),
 * inside its deletion transaction: checks that have not delivered their report are stopped and a
 * paid one's order refunded in full (stopChecksOfErasedAccount), the checks are hidden and the
 * author cleared, and a job is queued that deletes the uploads, texts and report files and takes
 * opted-in papers out of the comparison library. Orders and payments are the orders module's
 * (kept, de-identified). The signed report summaries stay (title, masked author, figures) so
 * printed reports remain verifiable.
 */
export function registerCheckAccountHooks(hooks: AccountHooks, rt: CheckRuntime): void {
  hooks.onDeletion('check', async (tx, userId, { now, status }) => {
    await stopChecksOfErasedAccount(rt, tx, userId, now, status);
    const { keys, libraryIds } = await listAccountCheckFiles(tx, userId);
    // The AIGC add-on's stored section (migration 0042) goes with the other files.
    keys.push(...(await listAccountAddonKeys(tx, userId)));
    await deidentifyAccountChecks(tx, userId, now);
    await clearAccountAddonKeys(tx, userId);
    // The revisions of the report editor are the paper's text: erased with the account.
    await deleteRevisionsOfUser(tx, userId);
    if (keys.length > 0 || libraryIds.length > 0) {
      await enqueue(tx, CHECK_PURGE_JOB, { keys, libraryIds }, { maxAttempts: 5 });
    }
  });

  hooks.addExportSection('checks', (db, userId) => listChecksForExport(db, userId));
  hooks.addExportSection('checkRevisions', (db, userId) => listRevisionsForExport(db, userId));
  hooks.addStorageUse('check', sumAccountCheckFileBytes);
}
