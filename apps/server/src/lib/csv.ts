import type { FastifyReply } from 'fastify';
import { attachment } from './upload.ts';

/**
 * The console's CSV exports: UTF-8 with a byte-order mark (Excel on Windows reads Chinese from a
 * CSV only with it), CRLF line ends, every cell quoted when it holds a comma, quote or line break.
 * A cell that starts with = + - @ (or a tab / carriage return) is prefixed with ' so a spreadsheet
 * shows it as text instead of running it as a formula (CSV injection).
 */

export interface CsvColumn<R> {
  title: string;
  value: (row: R) => string | number | null | undefined;
}

const BOM = '\uFEFF';

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<R>(columns: readonly CsvColumn<R>[], rows: readonly R[]): Buffer {
  const lines = [columns.map((c) => cell(c.title)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row))).join(','));
  return Buffer.from(`${BOM}${lines.join('\r\n')}\r\n`, 'utf8');
}

/** A timestamp as China time (UTC+8, no daylight saving), `YYYY-MM-DD HH:mm`; null stays empty. */
export function chinaTime(at: Date | string | null | undefined): string {
  if (at === null || at === undefined) return '';
  const ms = (typeof at === 'string' ? new Date(at) : at).getTime() + 8 * 3_600_000;
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Sends `csv` as a download named `fileName` (its ASCII fallback `asciiName`). */
export function sendCsv(reply: FastifyReply, csv: Buffer, fileName: string, asciiName: string): void {
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', attachment(fileName, asciiName))
    .send(csv);
}
