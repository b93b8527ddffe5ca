import path from 'node:path';
import type { FileStorage } from './file-storage.ts';
import { createLocalStorage } from './local-storage.ts';
import { createS3Storage } from './s3-storage.ts';

export { assertValidKey, FileNotFoundError, type FileStorage } from './file-storage.ts';
export { createLocalStorage } from './local-storage.ts';

/** Where files go: the local folder DATA_DIR/files, or an S3-compatible object store (STORAGE=s3). */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      prefix?: string;
    };

/** The folder under DATA_DIR that holds the local file storage. */
export function filesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

/** The configured file storage: DATA_DIR/files unless the configuration names an S3 store. */
export function createFileStorage(config: { dataDir: string; storage?: StorageConfig }): FileStorage {
  const storage = config.storage ?? { kind: 'local' };
  if (storage.kind === 's3') return createS3Storage(storage);
  return createLocalStorage(filesDir(config.dataDir));
}
