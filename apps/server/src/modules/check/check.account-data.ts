import { enqueue } from '../../jobs/index.ts';
import { registerAccountDeletionHook, registerAccountExportSection } from '../accounts/accounts.service.ts';
import { deidentifyAccountChecks, listAccountCheckFiles, listChecksForExport } from './check.repo.ts';
import { CHECK_PURGE_JOB } from './check.service.ts';

/**
 * The account's papers are personal data. When the account is deleted (or closed for inactivity),
 * inside its deletion transaction: the checks are hidden and the author cleared, and a job is
 * queued that deletes the uploads, texts and report files and takes opted-in papers out of the
 * comparison library. Orders and payments are the orders module's (kept, de-identified). The signed
 * report summaries stay (title, masked author, figures) so printed reports remain verifiable.
 */
registerAccountDeletionHook('check', async (tx, userId) => {
  const { keys, libraryIds } = await listAccountCheckFiles(tx, userId);
  await deidentifyAccountChecks(tx, userId, new Date());
  if (keys.length > 0 || libraryIds.length > 0) {
    await enqueue(tx, CHECK_PURGE_JOB, { keys, libraryIds }, { maxAttempts: 5 });
  }
});

registerAccountExportSection('checks', (db, userId) => listChecksForExport(db, userId));
