import { randomUUID } from 'node:crypto';
import { COMMISSION_FILE_RULES, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { extractUpload } from '../check/check.service.ts';
import { type CommissionFileRow, deleteLooseAttachments, insertFile } from './commission.repo.ts';
import { type CommissionRuntime, LOOSE_ATTACHMENT_MS } from './commission.runtime.ts';

/** Attachments and reports: documents only, stored in the check's file storage. */
// --- files ---------------------------------------------------------------------------------------

/**
 * A document the client (or an operator) uploads: extension and size first, then the check's
 * extraction (sniffed, parsed in a worker with limits) proves it is a readable PDF, Word or text
 * file. A scanned PDF or one without text passes: it is a document, only not searchable.
 */
export async function checkDocument(
  rt: CommissionRuntime,
  bytes: Uint8Array,
  fileName: string,
  signal?: AbortSignal,
) {
  const name = fileName.trim();
  if (bytes.length === 0 || !name) throw new AppError(ErrorCode.VALIDATION, COMMISSION_FILE_RULES.missing);
  const ext = /\.[^.]+$/.exec(name)?.[0]?.toLowerCase() ?? '';
  if (!(COMMISSION_FILE_RULES.extensions as readonly string[]).includes(ext))
    throw new AppError(ErrorCode.CHECK_FILE_UNSUPPORTED, COMMISSION_FILE_RULES.unsupported);
  if (bytes.length > COMMISSION_FILE_RULES.maxBytes)
    throw new AppError(ErrorCode.CHECK_FILE_TOO_LARGE, COMMISSION_FILE_RULES.tooLarge);
  try {
    await extractUpload(rt.check, bytes, name, signal);
  } catch (error) {
    const readable =
      isAppError(error) &&
      (error.code === ErrorCode.CHECK_FILE_SCANNED || error.code === ErrorCode.CHECK_FILE_EMPTY);
    if (!readable) {
      if (isAppError(error) && error.code === ErrorCode.CHECK_FILE_UNSUPPORTED)
        throw new AppError(ErrorCode.CHECK_FILE_UNSUPPORTED, COMMISSION_FILE_RULES.unsupported, {
          cause: error,
        });
      throw error;
    }
  }
  return { name: name.slice(-200), ext };
}

export async function storeFile(
  rt: CommissionRuntime,
  input: {
    userId: string;
    commissionId: string | null;
    kind: 'attachment' | 'report';
    bytes: Uint8Array;
    fileName: string;
    staffId: string | null;
    /** The upload request's (lib/upload.ts extractionSignal). */
    signal?: AbortSignal;
  },
  tx?: Kysely<Database>,
) {
  const { name, ext } = await checkDocument(rt, input.bytes, input.fileName, input.signal);
  const id = randomUUID();
  const storageKey = `commission/${input.userId}/${id}${ext}`;
  await rt.check.storage.put(storageKey, input.bytes);
  try {
    return await insertFile(tx ?? rt.db, {
      id,
      userId: input.userId,
      commissionId: input.commissionId,
      kind: input.kind,
      fileName: name,
      storageKey,
      bytes: input.bytes.length,
      staffId: input.staffId,
      now: rt.now(),
    });
  } catch (error) {
    await rt.check.storage.delete(storageKey);
    throw error;
  }
}

export async function uploadAttachment(
  rt: CommissionRuntime,
  userId: string,
  file: { bytes: Uint8Array; fileName: string },
  signal?: AbortSignal,
) {
  return toFileView(
    await storeFile(rt, { userId, commissionId: null, kind: 'attachment', staffId: null, signal, ...file }),
  );
}

export function toFileView(f: CommissionFileRow) {
  return {
    fileId: f.id,
    kind: f.kind,
    fileName: f.file_name,
    bytes: f.bytes,
    createdAt: f.created_at.toISOString(),
  };
}

/** Deletes stored files of an erased account (idempotent: a missing file is no error). */
export async function purgeFiles(rt: CommissionRuntime, keys: readonly string[]): Promise<void> {
  for (const key of keys) await rt.check.storage.delete(key);
}

/** Attachments uploaded over a day ago and never sent with a form: rows and files deleted. */
export async function sweepLooseAttachments(rt: CommissionRuntime): Promise<number> {
  const keys = await deleteLooseAttachments(rt.db, new Date(rt.now().getTime() - LOOSE_ATTACHMENT_MS));
  await purgeFiles(rt, keys);
  return keys.length;
}
