import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Job, JobResult } from '../worker.ts';

const WORKER = new URL('../worker.ts', import.meta.url).pathname;

/** Run a job in a fresh Node process (same Node binary) and return its result. */
export function runJob(
  job: Job,
  opts: { maxOldSpaceMb?: number; log?: (s: string) => void } = {},
): Promise<JobResult> {
  const args = [
    ...(opts.maxOldSpaceMb ? [`--max-old-space-size=${opts.maxOldSpaceMb}`] : []),
    WORKER,
    JSON.stringify(job),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      const s = b.toString('utf8');
      err += s;
      if (err.length > 100_000) err = err.slice(-50_000);
      opts.log?.(s);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('@@result '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(9)) as JobResult);
      else reject(new Error(`${job.engine} ${job.op} failed (exit ${code}): ${err.slice(-3000)}`));
    });
  });
}

export function dirSize(path: string): number {
  let total = 0;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.size;
  for (const name of readdirSync(path)) total += dirSize(join(path, name));
  return total;
}
