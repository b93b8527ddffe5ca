import type { Database, Kysely, LibraryImportRow, LibraryImportStatus } from '@kyfw/db';
import { TEXTS } from './library.texts.ts';

const LOST_JOB_TEXT = TEXTS.failedUnexpected;

/** SQL of library_imports (migration 0040): the console's imports and their progress. */

export interface LibraryImportRecord {
  id: string;
  fileName: string;
  fileKey: string;
  fileBytes: number;
  collection: 'journal' | 'thesis' | 'web';
  status: LibraryImportStatus;
  progress: number;
  progressText: string | null;
  summary: unknown;
  error: string | null;
  staffId: string | null;
  username: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/**
 * A row as the console shows it: a queued or running import whose job failed for good (the process
 * died on its last attempt, so the handler could not record it) is failed.
 */
function toRecord(r: LibraryImportRow & { job_status?: string | null }): LibraryImportRecord {
  const lost = (r.status === 'queued' || r.status === 'running') && r.job_status === 'failed';
  return {
    id: r.id,
    fileName: r.file_name,
    fileKey: r.file_key,
    fileBytes: Number(r.file_bytes),
    collection: r.collection,
    status: lost ? 'failed' : r.status,
    progress: r.progress,
    progressText: lost ? null : r.progress_text,
    summary: r.summary,
    error: lost ? (r.error ?? LOST_JOB_TEXT) : r.error,
    staffId: r.staff_id,
    username: r.username,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

export async function insertImport(
  db: Kysely<Database>,
  row: Pick<
    LibraryImportRecord,
    'id' | 'fileName' | 'fileKey' | 'fileBytes' | 'collection' | 'staffId' | 'username'
  > & {
    jobId: string;
    progressText: string;
    now: Date;
  },
): Promise<LibraryImportRecord> {
  const inserted = await db
    .insertInto('library_imports')
    .values({
      id: row.id,
      file_name: row.fileName,
      file_key: row.fileKey,
      file_bytes: row.fileBytes,
      collection: row.collection,
      job_id: row.jobId,
      progress_text: row.progressText,
      staff_id: row.staffId,
      username: row.username,
      created_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(inserted);
}

export async function getImport(db: Kysely<Database>, id: string): Promise<LibraryImportRecord | undefined> {
  const row = await db.selectFrom('library_imports').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** The newest imports first. */
export async function listImports(db: Kysely<Database>, limit: number): Promise<LibraryImportRecord[]> {
  const rows = await db
    .selectFrom('library_imports')
    .leftJoin('jobs', 'jobs.id', 'library_imports.job_id')
    .selectAll('library_imports')
    .select('jobs.status as job_status')
    .orderBy('library_imports.created_at', 'desc')
    .orderBy('library_imports.id')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

export async function updateImport(
  db: Kysely<Database>,
  id: string,
  set: Partial<{
    status: LibraryImportStatus;
    progress: number;
    progressText: string | null;
    summary: unknown;
    error: string | null;
    startedAt: Date;
    finishedAt: Date;
  }>,
): Promise<void> {
  await db
    .updateTable('library_imports')
    .set({
      ...(set.status !== undefined ? { status: set.status } : {}),
      ...(set.progress !== undefined
        ? { progress: Math.max(0, Math.min(100, Math.round(set.progress))) }
        : {}),
      ...(set.progressText !== undefined ? { progress_text: set.progressText?.slice(0, 200) ?? null } : {}),
      ...(set.summary !== undefined ? { summary: JSON.stringify(set.summary) } : {}),
      ...(set.error !== undefined ? { error: set.error?.slice(0, 1000) ?? null } : {}),
      ...(set.startedAt !== undefined ? { started_at: set.startedAt } : {}),
      ...(set.finishedAt !== undefined ? { finished_at: set.finishedAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}
