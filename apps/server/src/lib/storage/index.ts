import path from 'node:path';
import { createLocalStorage } from './local-storage.ts';

export { assertValidKey, FileNotFoundError, type FileStorage } from './file-storage.ts';
export { createLocalStorage } from './local-storage.ts';

/** The folder under DATA_DIR that holds the local file storage. */
export function filesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

/** The configured file storage: today always the local folder DATA_DIR/files. */
export function createFileStorage(config: { dataDir: string }) {
  return createLocalStorage(filesDir(config.dataDir));
}
