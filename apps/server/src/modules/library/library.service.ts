import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ErrorCode,
  LIBRARY_COLLECTION_NAMES,
  LIBRARY_COLLECTIONS,
  type LibraryCollection,
  type LibraryDocument,
  type LibraryImport,
  type LibraryStats,
} from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { runLibraryImport } from '../../cli/library-import.ts';
import type { Config } from '../../config.ts';
import { enqueue, type JobContext, NonRetryableJobError } from '../../jobs/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Logger } from '../../lib/logger.ts';
import { FileNotFoundError } from '../../lib/storage/file-storage.ts';
import type { CheckRuntime } from '../check/check.runtime.ts';
import { listCheckGoods } from '../check/check.service.ts';
import type { CatalogEntry } from '../check/library/catalog.ts';
import { TEXTS } from './library.texts.ts';
import { ImportFileError, prepareImportInput, sniffImportFile, validateImportInput } from './library-file.ts';
import {
  getImport,
  insertImport,
  type LibraryImportRecord,
  listImports,
  updateImport,
} from './library-imports.repo.ts';

/** What the console's library screen needs: the check module's library and storage, the database. */
export interface LibraryAdminRuntime {
  db: Kysely<Database>;
  check: CheckRuntime;
  config: Pick<Config, 'check' | 'databaseUrl'>;
  logger: Logger;
  now: () => Date;
}

export const LIBRARY_IMPORT_JOB = 'library.import';

function toDocument(e: CatalogEntry): LibraryDocument {
  return {
    id: e.id,
    title: e.title,
    authors: e.authors,
    year: e.year,
    source: e.source,
    discipline: e.discipline,
    collection: e.collection,
    chars: e.chars,
    origin: e.origin,
    addedAt: e.addedAt,
  };
}

function toImport(r: LibraryImportRecord): LibraryImport {
  return {
    importId: r.id,
    fileName: r.fileName,
    fileBytes: r.fileBytes,
    collection: r.collection,
    status: r.status,
    progress: r.progress,
    progressText: r.progressText,
    summary: (r.summary as LibraryImport['summary']) ?? null,
    error: r.error,
    username: r.username,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** Documents, characters and the newest addition per collection, and which check goods are on sale. */
export async function libraryStats(rt: LibraryAdminRuntime): Promise<LibraryStats> {
  const composition = await rt.check.library.composition();
  const byCollection = new Map(composition.map((c) => [c.collection, c]));
  const collections = LIBRARY_COLLECTIONS.map((collection) => {
    const c = byCollection.get(collection);
    return {
      collection,
      name: LIBRARY_COLLECTION_NAMES[collection],
      documents: c?.documents ?? 0,
      chars: c?.chars ?? 0,
      lastAddedAt: c?.lastAddedAt ?? null,
    };
  });
  const goods = (await listCheckGoods(rt.check, null))
    .filter((g) => g.kind === 'similarity')
    .map((g) => ({ goodsId: g.goodsId, name: g.name, onSale: g.available, reason: g.unavailableReason }));
  return {
    collections,
    documents: collections.reduce((n, c) => n + c.documents, 0),
    chars: collections.reduce((n, c) => n + c.chars, 0),
    goods,
  };
}

export async function searchLibrary(
  rt: LibraryAdminRuntime,
  query: { text: string; collection?: LibraryCollection; page: number; pageSize: number },
) {
  const found = await rt.check.library.find({
    text: query.text,
    ...(query.collection ? { collection: query.collection } : {}),
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return { total: found.total, list: found.list.map(toDocument) };
}

/** Removes a document from the index and the catalogue: new checks no longer match it. */
export async function removeDocument(rt: LibraryAdminRuntime, id: string): Promise<LibraryDocument> {
  const entry = (await rt.check.library.describeSources([id])).get(id);
  if (!entry) throw new AppError(ErrorCode.RESOURCE_NOT_FOUND, TEXTS.documentNotFound);
  await rt.check.library.remove(id);
  return toDocument(entry);
}

export async function listLibraryImports(rt: LibraryAdminRuntime): Promise<LibraryImport[]> {
  return (await listImports(rt.db, 30)).map(toImport);
}

/**
 * Stores an uploaded file and queues its import (one transaction: the row and its job). The file's
 * kind is checked first (1001 with a clear message, nothing stored).
 */
export async function startImport(
  rt: LibraryAdminRuntime,
  input: {
    fileName: string;
    bytes: Buffer;
    collection: 'journal' | 'thesis' | 'web';
    staff: { staffId: string; username: string };
  },
): Promise<LibraryImport> {
  const kind = sniffImportFile(input.fileName, input.bytes);
  const id = randomUUID();
  const now = rt.now();
  const ext = kind === 'jsonl.gz' ? 'jsonl.gz' : kind;
  const fileKey = `library-imports/${now.getUTCFullYear()}/${id}/upload.${ext}`;
  await rt.check.storage.put(fileKey, input.bytes);
  try {
    const row = await rt.db.transaction().execute(async (tx) => {
      const job = await enqueue(tx, LIBRARY_IMPORT_JOB, { importId: id }, { maxAttempts: 3 });
      return insertImport(tx, {
        id,
        fileName: input.fileName.slice(0, 255),
        fileKey,
        fileBytes: input.bytes.length,
        collection: input.collection,
        staffId: input.staff.staffId,
        username: input.staff.username,
        jobId: job.id,
        progressText: TEXTS.progressQueued,
        now,
      });
    });
    return toImport(row);
  } catch (error) {
    await rt.check.storage.delete(fileKey).catch(() => undefined);
    throw error;
  }
}

/**
 * The library.import job: reads the stored file, checks every record (a bad file fails with the
 * reason and adds nothing), then adds them through the CLI's import (runLibraryImport: resumable,
 * so a retry after a crash skips what is in), reporting progress on the row and the job.
 */
export async function runImportJob(
  rt: LibraryAdminRuntime,
  ctx: Pick<JobContext<unknown>, 'reportProgress' | 'job'>,
  importId: string,
): Promise<unknown> {
  const row = await getImport(rt.db, importId);
  if (!row || row.status === 'succeeded' || row.status === 'failed')
    return { skipped: row?.status ?? 'missing' };
  const progress = async (percent: number, text: string) => {
    await updateImport(rt.db, importId, { progress: percent, progressText: text });
    await ctx.reportProgress(percent, text);
  };
  await updateImport(rt.db, importId, { status: 'running', startedAt: rt.now() });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kyfw-library-import-'));
  const fail = async (message: string) => {
    await updateImport(rt.db, importId, {
      status: 'failed',
      error: message,
      progressText: null,
      finishedAt: rt.now(),
    });
    await rt.check.storage.delete(row.fileKey).catch(() => undefined);
  };
  try {
    let bytes: Buffer;
    try {
      bytes = await rt.check.storage.get(row.fileKey);
    } catch (error) {
      if (error instanceof FileNotFoundError) throw new ImportFileError(TEXTS.lost);
      throw error;
    }
    const kind = sniffImportFile(row.fileName, bytes);
    const input = prepareImportInput(kind, row.fileName, bytes, work);
    await progress(1, TEXTS.progressChecking(0));
    let pending = Promise.resolve();
    const total = await validateImportInput(input, kind, row.collection, (n) => {
      pending = pending.then(() => progress(2, TEXTS.progressChecking(n))).catch(() => undefined);
    });
    await pending;
    await progress(5, TEXTS.progressAdding(0, total));
    const summary = await runLibraryImport(
      {
        input: input.input,
        collection: row.collection,
        batch: 500,
        ...(input.idPrefix ? { idPrefix: input.idPrefix } : {}),
      },
      rt.config,
      (line) => rt.logger.debug({ importId }, line),
      (s) => {
        const done = Math.min(s.read, total);
        pending = pending
          .then(() => progress(5 + Math.floor((94 * done) / total), TEXTS.progressAdding(done, total)))
          .catch(() => undefined);
      },
    );
    await pending;
    await updateImport(rt.db, importId, {
      status: 'succeeded',
      progress: 100,
      progressText: null,
      summary,
      finishedAt: rt.now(),
    });
    await rt.check.storage.delete(row.fileKey).catch(() => undefined);
    return summary;
  } catch (error) {
    if (error instanceof ImportFileError || error instanceof AppError) {
      await fail(error.message);
      throw new NonRetryableJobError(error.message);
    }
    // Something else (the disk, the database): retried; on the last attempt the row says so.
    if (ctx.job.attempts >= ctx.job.maxAttempts) await fail(TEXTS.failedUnexpected);
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
