/**
 * The check module's service: what its routes, its jobs and other modules call. Each use case
 * lives in a file of its own (the module's README lists them); this file only gathers them, so a
 * caller outside the module has one place to import from.
 */

export { failedFreeText, freeCapOf, listCheckGoods } from './check-goods.service.ts';
export { deleteCheck } from './delete.service.ts';
export { failCheck, stopChecksOfErasedAccount } from './failure.service.ts';
export { CHECK_JOB, CHECK_PURGE_JOB } from './job-names.ts';
export { type DownloadKind, getReportJson, openDownload, verifyReport } from './reports.service.ts';
export { queueCheck, queuePaidCheck, retryCheck, startFreeCheck } from './start.service.ts';
export { findCheckStatus, getCheckStatus, listChecks } from './status.service.ts';
export { extractUpload, type StoredText, type UploadInput, uploadPaper } from './upload.service.ts';
