import type { Readable } from 'node:stream';

/**
 * Where the server keeps files (uploads, reports, proofs): a key -> bytes store. Keys are relative
 * POSIX paths such as `check/<id>/original.docx`; `..`, absolute paths and backslashes are refused.
 * The embedded mode uses a local folder (DATA_DIR/files, see local-storage.ts); an S3-compatible
 * store can implement the same interface for the scaled mode.
 */
export interface FileStorage {
  /** Writes the whole file, replacing an existing one; readers never see a half-written file. */
  put(key: string, data: Uint8Array | string): Promise<void>;
  /** The file's bytes; throws FileNotFoundError when there is none. */
  get(key: string): Promise<Buffer>;
  /** A stream of the file (downloads); throws FileNotFoundError when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number }>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file; no error when it does not exist. */
  delete(key: string): Promise<void>;
  /** Deletes every file whose key starts with `prefix/` (a folder); no error when there are none. */
  deleteFolder(prefix: string): Promise<void>;
}

export class FileNotFoundError extends Error {
  override readonly name = 'FileNotFoundError';
  readonly key: string;

  constructor(key: string) {
    super(`file not found: ${key}`);
    this.key = key;
  }
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Throws for a key that could leave the storage root or is not a plain relative path. */
export function assertValidKey(key: string): void {
  const parts = key.split('/');
  if (
    key.length === 0 ||
    key.length > 300 ||
    parts.some((p) => p === '' || p === '.' || p === '..' || !SEGMENT.test(p))
  ) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
}
