import { randomUUID } from 'node:crypto';
import { createFileStorage, type StorageConfig } from '../../lib/storage/index.ts';

/**
 * The orders module's files (offline-payment proofs, invoice PDFs) in the server's shared file
 * storage (lib/storage: DATA_DIR/files, or the S3 store of STORAGE=s3), under
 * `orders/<area>/<yyyy>/<mm>/`.
 * Keys are generated here; the storage refuses any key that could leave its root.
 */
export interface FileStore {
  save(area: 'offline-proofs' | 'invoices', extension: string, data: Buffer, now: Date): Promise<string>;
  read(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

export function createFileStore(dataDir: string, config?: StorageConfig): FileStore {
  const storage = createFileStorage({ dataDir, ...(config ? { storage: config } : {}) });
  return {
    async save(area, extension, data, now) {
      const month = String(now.getUTCMonth() + 1).padStart(2, '0');
      const key = `orders/${area}/${now.getUTCFullYear()}/${month}/${randomUUID()}.${extension}`;
      await storage.put(key, data);
      return key;
    },
    read: (key) => storage.get(key),
    remove: (key) => storage.delete(key),
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
