import { ErrorCode } from '@kyfw/contracts';
import { AppError } from '../../lib/app-error.ts';
import { FileNotFoundError } from '../../lib/storage/index.ts';
import { aigcReportFileName } from './aigc/aigc-report.ts';
import type { CheckRuntime } from './check.runtime.ts';
import { CHECK_STATUS_TEXTS, TEXTS } from './check.texts.ts';
import { type CheckReportRecord, findReport, findReportByNo } from './check-reports.repo.ts';
import { getOwnCheck } from './own-check.ts';
import { reportFileNames } from './report/render.ts';
import { isGenuine, type ReportSummary } from './signing.ts';
import { reconcile } from './status.service.ts';

/** A finished check's report: its JSON model, its files, and the public verification of a printed report. */

async function getFinishedReport(rt: CheckRuntime, userId: string, orderId: string) {
  const check = await reconcile(rt, await getOwnCheck(rt, userId, orderId));
  if (check.status !== 'done') {
    const message =
      check.status === 'pending'
        ? TEXTS.notReadyPending
        : check.status === 'failed'
          ? TEXTS.failedNotReady
          : TEXTS.notReady(CHECK_STATUS_TEXTS[check.status], check.progress);
    throw new AppError(ErrorCode.CHECK_NOT_READY, message);
  }
  const report = await findReport(rt.db, check.id);
  if (!report) throw new AppError(ErrorCode.CHECK_NOT_READY);
  return { check, report };
}

/**
 * /freeCheck/report: the stored report model as JSON text, sent as is inside the envelope (no
 * parse/serialise round trip for an 80,000-character thesis).
 */
export async function getReportJson(rt: CheckRuntime, userId: string, orderId: string): Promise<string> {
  const { report } = await getFinishedReport(rt, userId, orderId);
  if (!report.modelKey) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
  return (await rt.storage.get(report.modelKey)).toString('utf8');
}

export type DownloadKind = 'pdf' | 'marked' | 'html' | 'zip';

const CONTENT_TYPES: Record<DownloadKind, string> = {
  pdf: 'application/pdf',
  marked: 'application/pdf',
  html: 'text/html; charset=utf-8',
  zip: 'application/zip',
};

export async function openDownload(rt: CheckRuntime, userId: string, orderId: string, kind: DownloadKind) {
  const { check, report } = await getFinishedReport(rt, userId, orderId);
  const keys: Record<DownloadKind, string | null> = {
    pdf: report.pdfKey,
    marked: report.markedPdfKey,
    html: report.htmlKey,
    zip: report.zipKey,
  };
  // An AIGC report has one file, its PDF.
  if (check.kind === 'aigc' && kind !== 'pdf')
    throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.aigcPdfOnly);
  const key = keys[kind];
  if (!key) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
  try {
    const file = await rt.storage.open(key);
    const fileName = check.kind === 'aigc' ? aigcReportFileName(check) : reportFileNames(check)[kind];
    return { ...file, fileName, contentType: CONTENT_TYPES[kind] };
  } catch (error) {
    if (error instanceof FileNotFoundError)
      throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.filesRemoved);
    throw error;
  }
}

/** /freeCheck/verify: the signed summary when number and code match and the record is untouched. */
export async function verifyReport(rt: CheckRuntime, reportNo: string, code: string) {
  const report: CheckReportRecord | undefined = await findReportByNo(rt.db, reportNo.trim().toUpperCase());
  const summary = report?.summary as ReportSummary | undefined;
  if (
    !report ||
    !summary ||
    !isGenuine(rt.signingSecret, summary, report.signature, code.trim().toUpperCase())
  ) {
    throw new AppError(ErrorCode.REPORT_NOT_GENUINE);
  }
  return { genuine: true, message: TEXTS.verifyOk, ...summary };
}
