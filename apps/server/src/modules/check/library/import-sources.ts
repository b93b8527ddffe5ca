import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import type { LibraryCollection } from '@kyfw/contracts';
import { ExtractError, extractDocument } from '@kyfw/simcheck/extract';
import type { LibraryInput } from './library.ts';

/**
 * Readers for `npm run library:import`: JSON lines (optionally gzipped) and folders of papers.
 * Both yield LibraryInput with stable ids, so a second run skips what the first one added.
 */

export interface SourceOptions {
  /** Put before every id (e.g. 'csl:'); default: JSON lines '<file name>:', folders none. */
  idPrefix?: string;
  /** Catalogue `source` for records that name none (default: none — never the file's name). */
  source?: string;
  /** The collection the documents go into (default journal). */
  collection?: LibraryCollection;
  /** A line or file that could not be read: reported, skipped. */
  onSkip?: (where: string, reason: string) => void;
}

const TEXT_FIELDS = ['text', 'abstract', 'content', 'body', 'fulltext'] as const;
const AUTHOR_SPLIT = /\s*[,;，；、]\s*|\s+and\s+/u;

function pickString(rec: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = rec[name];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

function toAuthors(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .map((v) => String(v).trim())
      .filter(Boolean)
      .slice(0, 50);
  if (typeof value === 'string')
    return value
      .split(AUTHOR_SPLIT)
      .map((s) => s.trim())
      .filter(Boolean)
      .slice(0, 50);
  return [];
}

/** Longest abstract kept in the catalogue (characters); longer ones are cut there. */
export const ABSTRACT_MAX = 4000;
const KEYWORD_SPLIT = /\s*[,;，；、]\s*/u;

/** Keywords of a record: a list, or one string separated by commas/semicolons/、. */
function toKeywords(value: unknown): string[] {
  const list = Array.isArray(value)
    ? value.map((v) => String(v))
    : typeof value === 'string'
      ? value.split(KEYWORD_SPLIT)
      : [];
  return [...new Set(list.map((k) => k.trim().slice(0, 100)).filter(Boolean))].slice(0, 30);
}

/** What a record says about itself besides its text: its abstract and keywords. */
function abstractAndKeywords(rec: Record<string, unknown>): { abstract: string | null; keywords: string[] } {
  const abstract = pickString(rec, ['abstract', 'summary']);
  return {
    abstract: abstract ? abstract.trim().slice(0, ABSTRACT_MAX) : null,
    keywords: toKeywords(rec.keywords ?? rec.keyword ?? rec.keys),
  };
}

function toYear(value: unknown): number | null {
  const m = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const found = /(1[5-9]|20)\d{2}/.exec(m);
  return found ? Number(found[0]) : null;
}

/**
 * Maps one JSON record: {id, title?, text|abstract|content, authors|author?, year|date?,
 * source|journal?, discipline|category?, abstract?, keywords?}.
 */
export function recordToInput(
  rec: Record<string, unknown>,
  options: SourceOptions = {},
): LibraryInput | null {
  const text = pickString(rec, TEXT_FIELDS);
  const rawId = rec.id;
  if (text === undefined || (typeof rawId !== 'string' && typeof rawId !== 'number') || String(rawId) === '')
    return null;
  return {
    id: `${options.idPrefix ?? ''}${String(rawId)}`,
    text,
    title: pickString(rec, ['title']) ?? null,
    authors: toAuthors(rec.authors ?? rec.author),
    year: toYear(rec.year ?? rec.date ?? rec.pubdate ?? rec.published),
    source: pickString(rec, ['source', 'journal', 'venue', 'publisher']) ?? options.source ?? null,
    discipline: pickString(rec, ['discipline', 'subject', 'category']) ?? null,
    ...abstractAndKeywords(rec),
    collection: options.collection ?? 'journal',
    origin: 'import',
  };
}

/** Library records from a .jsonl or .jsonl.gz file. */
export async function* readJsonLines(
  file: string,
  options: SourceOptions = {},
): AsyncGenerator<LibraryInput> {
  let input: NodeJS.ReadableStream = fs.createReadStream(file);
  if (file.endsWith('.gz')) input = input.pipe(zlib.createGunzip());
  const rl = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const stem = path.basename(file).replace(/\.jsonl(\.gz)?$|\.json(\.gz)?$/i, '');
  // Ids are prefixed with the file's name by default, so two collections numbered 0, 1, 2 … do not
  // collide; the same file imported again keeps its ids (resumable).
  const idPrefix = options.idPrefix ?? `${stem}:`;
  let lineNo = 0;
  for await (const line of rl) {
    lineNo++;
    if (!line.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      options.onSkip?.(`第 ${lineNo} 行`, '不是合法的 JSON');
      continue;
    }
    const input =
      rec && typeof rec === 'object'
        ? recordToInput(rec as Record<string, unknown>, { ...options, idPrefix })
        : null;
    if (!input) {
      options.onSkip?.(`第 ${lineNo} 行`, '缺少 id 或正文（text / abstract）');
      continue;
    }
    yield input;
  }
}

const PAPER_EXTENSIONS = new Set(['.docx', '.doc', '.pdf', '.txt']);

function* walk(dir: string): Generator<string> {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.isFile() && PAPER_EXTENSIONS.has(path.extname(e.name).toLowerCase())) yield full;
  }
}

/**
 * Papers from a folder (recursively): .docx, .doc, .pdf and .txt, extracted like uploads. The id is
 * the path relative to the folder. Optional metadata beside a file: `<name>.json` with
 * {title, authors, year, source, discipline, abstract, keywords}; otherwise the title is the file name.
 */
export async function* readFolder(dir: string, options: SourceOptions = {}): AsyncGenerator<LibraryInput> {
  for (const file of walk(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    let meta: Record<string, unknown> = {};
    const sidecar = file.replace(/\.[^.]+$/, '.json');
    if (fs.existsSync(sidecar)) {
      try {
        meta = JSON.parse(fs.readFileSync(sidecar, 'utf8')) as Record<string, unknown>;
      } catch {
        options.onSkip?.(path.relative(dir, sidecar), '元数据不是合法的 JSON，已忽略');
      }
    }
    let text: string;
    try {
      const doc = await extractDocument(new Uint8Array(fs.readFileSync(file)), { fileName: file });
      text = doc.text;
    } catch (error) {
      options.onSkip?.(rel, error instanceof ExtractError ? error.message : String(error));
      continue;
    }
    yield {
      id: `${options.idPrefix ?? ''}${rel}`,
      text,
      title: pickString(meta, ['title']) ?? path.basename(file, path.extname(file)),
      authors: toAuthors(meta.authors ?? meta.author),
      year: toYear(meta.year),
      source: pickString(meta, ['source', 'journal']) ?? options.source ?? null,
      discipline: pickString(meta, ['discipline', 'subject']) ?? null,
      ...abstractAndKeywords(meta),
      collection: options.collection ?? 'journal',
      origin: 'import',
    };
  }
}
