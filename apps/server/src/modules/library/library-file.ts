import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode, LIBRARY_IMPORT_RULES, type LibraryCollection } from '@kyfw/contracts';
import { unzipSync } from 'fflate';
import { AppError } from '../../lib/app-error.ts';
import { readFolder, readJsonLines } from '../check/library/import-sources.ts';
import { TEXTS } from './library.texts.ts';

/**
 * The console's import file: what kind it is (by name, confirmed by content), and on the worker,
 * the input `npm run library:import` reads — the .jsonl / .jsonl.gz file itself, or the folder a
 * .zip of papers unpacks to — checked record by record before anything is added.
 */

export type ImportKind = 'jsonl' | 'jsonl.gz' | 'zip';

/** A file that cannot be imported as it is: its message is for the operator; nothing was added. */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}

/** Unpacked size allowed for a .zip (a zip bomb stops here, before it is written out). */
const ZIP_MAX_UNPACKED = 1024 * 1024 * 1024;
const PAPER = /\.(docx|doc|pdf|txt|json)$/i;

/**
 * The kind of an uploaded file, by its name's ending and confirmed by its first bytes; 1001 with a
 * clear message otherwise (checked before the file is stored).
 */
export function sniffImportFile(fileName: string, bytes: Uint8Array): ImportKind {
  const name = fileName.toLowerCase();
  const kind: ImportKind | null = name.endsWith('.jsonl.gz')
    ? 'jsonl.gz'
    : name.endsWith('.jsonl')
      ? 'jsonl'
      : name.endsWith('.zip')
        ? 'zip'
        : null;
  const refuse = (message: string): never => {
    throw new AppError(ErrorCode.VALIDATION, message);
  };
  if (!kind) return refuse(LIBRARY_IMPORT_RULES.badExtension);
  if (bytes.length === 0) return refuse(TEXTS.emptyFile);
  if (kind === 'jsonl.gz' && !(bytes[0] === 0x1f && bytes[1] === 0x8b)) return refuse(TEXTS.notGzip);
  if (kind === 'zip' && !(bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)))
    return refuse(TEXTS.notZip);
  if (kind === 'jsonl') {
    let head: string;
    try {
      head = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 4096), { stream: true });
    } catch {
      return refuse(TEXTS.notText);
    }
    if (
      !head
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('{')
    )
      return refuse(TEXTS.notText);
  }
  return kind;
}

/** A file name safe to write in our own work folder (its stem becomes the ids' prefix, as in the CLI). */
function safeName(fileName: string): string {
  const base = path.basename(fileName.replace(/\\/g, '/'));
  return base.replace(/[^\p{L}\p{N}._-]/gu, '_').replace(/^\.+/, '_') || 'import';
}

/** The .zip's entries written under `dir` (papers and their .json sidecars only). */
function unpackZip(bytes: Uint8Array, dir: string): number {
  let unpacked = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        if (file.name.endsWith('/') || !PAPER.test(file.name)) return false;
        unpacked += file.originalSize;
        if (unpacked > ZIP_MAX_UNPACKED)
          throw new ImportFileError(TEXTS.zipTooBig(ZIP_MAX_UNPACKED / 1024 / 1024));
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(TEXTS.zipBroken);
  }
  let papers = 0;
  for (const [name, data] of Object.entries(entries)) {
    const parts = name.split('/');
    if (name.startsWith('/') || parts.some((p) => p === '..' || p === '') || name.includes('\\'))
      throw new ImportFileError(TEXTS.zipUnsafe(name));
    if (parts.some((p) => p.startsWith('.')) || parts[0] === '__MACOSX') continue;
    const target = path.join(dir, ...parts);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, data);
    if (!name.toLowerCase().endsWith('.json')) papers++;
  }
  return papers;
}

/**
 * Writes the import's input under `work`: the file itself (named as uploaded, so its ids get the
 * same prefix as with the CLI), or the folder a .zip unpacks to (ids `<zip name>/<path>`).
 */
export function prepareImportInput(
  kind: ImportKind,
  fileName: string,
  bytes: Uint8Array,
  work: string,
): { input: string; idPrefix?: string } {
  const name = safeName(fileName);
  if (kind !== 'zip') {
    const file = path.join(work, name);
    fs.writeFileSync(file, bytes);
    return { input: file };
  }
  const stem = name.replace(/\.zip$/i, '') || 'import';
  const dir = path.join(work, stem);
  fs.mkdirSync(dir, { recursive: true });
  if (unpackZip(bytes, dir) === 0) throw new ImportFileError(TEXTS.zipNoPapers);
  return { input: dir, idPrefix: `${stem}/` };
}

/**
 * Reads every record of the input as the import will (the CLI's readers), without adding any:
 * resolves to the number of documents, or throws ImportFileError naming the first problems (a line
 * that is not JSON, a record without id or text, a paper with no text to extract).
 */
export async function validateImportInput(
  input: { input: string; idPrefix?: string },
  kind: ImportKind,
  collection: LibraryCollection,
  onRead: (n: number) => void,
): Promise<number> {
  const problems: string[] = [];
  let total = 0;
  const onSkip = (where: string, reason: string) => {
    total++;
    if (problems.length < 5) problems.push(`${where}：${reason}`);
  };
  const options = { collection, onSkip, ...(input.idPrefix ? { idPrefix: input.idPrefix } : {}) };
  const records = kind === 'zip' ? readFolder(input.input, options) : readJsonLines(input.input, options);
  let count = 0;
  try {
    for await (const record of records) {
      if (!record.text.trim()) onSkip(record.id, '没有可提取的文字');
      else count++;
      if (count % 500 === 0) onRead(count);
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    // zlib's "unexpected end of file" / "incorrect header check": a damaged .gz.
    throw new ImportFileError(kind === 'jsonl.gz' ? TEXTS.gzipBroken : String(error));
  }
  if (total > 0) throw new ImportFileError(TEXTS.badRecords(problems, total));
  if (count === 0) throw new ImportFileError(TEXTS.noRecords);
  return count;
}
