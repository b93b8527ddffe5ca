import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, FileNotFoundError, type FileStorage } from './file-storage.ts';

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * FileStorage on a local folder (the embedded mode: DATA_DIR/files). Writes go to a temporary
 * file in the same folder and are renamed into place, so a crash never leaves a truncated file
 * under a real key.
 */
export function createLocalStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    assertValidKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${randomBytes(6).toString('hex')}`;
      try {
        await fs.writeFile(tmp, data, { mode: 0o600 });
        await fs.rename(tmp, file);
      } catch (error) {
        await fs.rm(tmp, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await fs.readFile(resolve(key));
      } catch (error) {
        if (isNotFound(error)) throw new FileNotFoundError(key);
        throw error;
      }
    },
    async open(key) {
      const file = resolve(key);
      try {
        const stat = await fs.stat(file);
        return { stream: createReadStream(file), size: stat.size };
      } catch (error) {
        if (isNotFound(error)) throw new FileNotFoundError(key);
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await fs.stat(resolve(key))).isFile();
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(resolve(key), { force: true });
    },
    async deleteFolder(prefix) {
      await fs.rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}
