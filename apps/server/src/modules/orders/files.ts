import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A small file store under `${DATA_DIR}/files` for the orders module (offline-payment proofs,
 * invoice PDFs). Keys are relative paths `<area>/<yyyy>/<mm>/<uuid>.<ext>` that this module
 * generates itself; a key from the database is still checked never to leave the root. Writes are
 * atomic (temp file + rename) and owner-only.
 *
 * Scaled mode needs DATA_DIR on storage shared by the API and worker processes (or an S3-style
 * store behind this same interface later).
 */
export interface FileStore {
  save(area: string, extension: string, data: Buffer, now: Date): Promise<string>;
  read(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z-]+\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;

export function createFileStore(root: string): FileStore {
  const resolve = (key: string): string => {
    if (!KEY_PATTERN.test(key)) throw new Error('invalid file key');
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('invalid file key');
    return full;
  };
  return {
    async save(area, extension, data, now) {
      const month = String(now.getUTCMonth() + 1).padStart(2, '0');
      const key = `${area}/${now.getUTCFullYear()}/${month}/${randomUUID()}.${extension}`;
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true, mode: 0o700 });
      const temp = `${full}.${process.pid}.tmp`;
      await writeFile(temp, data, { mode: 0o600 });
      await rename(temp, full);
      return key;
    },
    read: (key) => readFile(resolve(key)),
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
  };
}

export type ProofMimeType = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

/** What the bytes are (never the file name): PNG, JPEG, WebP or PDF; null for anything else. */
export function sniffProofType(data: Buffer): { mimeType: ProofMimeType; extension: string } | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((b, i) => data[offset + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mimeType: 'image/png', extension: 'png' };
  if (starts([0xff, 0xd8, 0xff])) return { mimeType: 'image/jpeg', extension: 'jpg' };
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return { mimeType: 'image/webp', extension: 'webp' };
  }
  // %PDF- within the first KiB (some writers put a few bytes before it) and an %%EOF near the end.
  const head = data.subarray(0, 1024).toString('latin1');
  const tail = data.subarray(Math.max(0, data.length - 2048)).toString('latin1');
  if (head.includes('%PDF-') && tail.includes('%%EOF'))
    return { mimeType: 'application/pdf', extension: 'pdf' };
  return null;
}
