import type { CheckReportRow, Database, Kysely } from '@kyfw/db';

/** Every SQL statement on `check_reports`: a finished check's signed report and its files. */

export interface CheckReportRecord {
  checkId: string;
  reportNo: string;
  verificationCode: string;
  summary: unknown;
  signature: string;
  ratio: number;
  totalChars: number;
  copiedChars: number;
  modelKey: string | null;
  pdfKey: string | null;
  markedPdfKey: string | null;
  htmlKey: string | null;
  zipKey: string | null;
  checkedAt: Date;
}

export function toReport(row: CheckReportRow): CheckReportRecord {
  return {
    checkId: row.check_id,
    reportNo: row.report_no,
    verificationCode: row.verification_code,
    summary: row.summary,
    signature: row.signature,
    ratio: row.ratio,
    totalChars: row.total_chars,
    copiedChars: row.copied_chars,
    modelKey: row.model_key,
    pdfKey: row.pdf_key,
    markedPdfKey: row.marked_pdf_key,
    htmlKey: row.html_key,
    zipKey: row.zip_key,
    checkedAt: row.checked_at,
  };
}

export interface NewReport {
  checkId: string;
  reportNo: string;
  verificationCode: string;
  summary: unknown;
  signature: string;
  ratio: number;
  totalChars: number;
  copiedChars: number;
  /** markedPdf, html and zip are null for an AIGC report (its one file is the PDF). */
  keys: { model: string; pdf: string; markedPdf: string | null; html: string | null; zip: string | null };
  checkedAt: Date;
}

/** Inserts the report; undefined when the report number was taken (the caller draws another). */
export async function insertReport(
  db: Kysely<Database>,
  r: NewReport,
): Promise<CheckReportRecord | undefined> {
  const row = await db
    .insertInto('check_reports')
    .values({
      check_id: r.checkId,
      report_no: r.reportNo,
      verification_code: r.verificationCode,
      summary: JSON.stringify(r.summary),
      signature: r.signature,
      ratio: r.ratio,
      total_chars: r.totalChars,
      copied_chars: r.copiedChars,
      model_key: r.keys.model,
      pdf_key: r.keys.pdf,
      marked_pdf_key: r.keys.markedPdf,
      html_key: r.keys.html,
      zip_key: r.keys.zip,
      checked_at: r.checkedAt,
    })
    .onConflict((oc) => oc.column('report_no').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toReport(row) : undefined;
}

/** The report of a check, or the one with a report number (verification); each column is unique. */
async function findReportWhere(
  db: Kysely<Database>,
  column: 'check_id' | 'report_no',
  value: string,
): Promise<CheckReportRecord | undefined> {
  const row = await db.selectFrom('check_reports').selectAll().where(column, '=', value).executeTakeFirst();
  return row ? toReport(row) : undefined;
}

export function findReport(db: Kysely<Database>, checkId: string): Promise<CheckReportRecord | undefined> {
  return findReportWhere(db, 'check_id', checkId);
}

export function findReportByNo(
  db: Kysely<Database>,
  reportNo: string,
): Promise<CheckReportRecord | undefined> {
  return findReportWhere(db, 'report_no', reportNo);
}

/** Removes a check's report row (a run stopped by a full refund: no report is kept). */
export async function deleteReport(db: Kysely<Database>, checkId: string): Promise<void> {
  await db.deleteFrom('check_reports').where('check_id', '=', checkId).execute();
}
