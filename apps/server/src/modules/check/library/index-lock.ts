import fs from 'node:fs';
import path from 'node:path';

const LOCK_FILE = '.write.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class IndexBusyError extends Error {
  override readonly name = 'IndexBusyError';
}

/**
 * Runs `fn` holding the write lock of a local index folder. The local index has a single writer:
 * its manifest is rewritten on every add, so two processes adding at once (the server adding an
 * opted-in paper while `npm run library:import` runs) would lose one's segments. The lock is a file
 * created exclusively, holding the owner's pid; a lock whose process is gone is taken over.
 * @throws IndexBusyError when another live process holds the lock for longer than `waitMs`.
 */
export async function withIndexWriteLock<T>(
  indexDir: string,
  fn: () => Promise<T>,
  options: { waitMs?: number; onWait?: (pid: number) => void } = {},
): Promise<T> {
  fs.mkdirSync(indexDir, { recursive: true });
  const file = path.join(indexDir, LOCK_FILE);
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
      if (!Number.isFinite(pid) || !isAlive(pid)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new IndexBusyError(`比对库正在被进程 ${pid} 写入，请稍后再试`);
      if (!told) options.onWait?.(pid);
      told = true;
      await delay(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}
