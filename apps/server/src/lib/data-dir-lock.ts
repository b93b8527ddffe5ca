import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The lock file of an embedded-mode data folder: the pid of the process that owns it. */
export const DATA_DIR_LOCK_FILE = 'kyfw.pid';

/** Thrown when another living process holds the data folder. */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `另一个 kyfw 进程（pid ${pid}）正在使用数据目录 ${dataDir}：请先停止它，或为本实例设置另一个 DATA_DIR`,
    );
    this.pid = pid;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's folder for this process: creates DATA_DIR/kyfw.pid exclusively,
 * before anything opens the database or queues a job. A lock left by a process that no longer
 * exists (kill -9, power loss) is taken over. Returns the release function (also run on exit).
 * @throws DataDirLockedError while another living process holds it
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(dataDir, pid);
      }
      if (attempt > 2) throw error;
      // Stale (its process is gone) or unreadable: remove it and try once more.
      rmSync(file, { force: true });
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}
