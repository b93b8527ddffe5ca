import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTempPostgresDatabase } from '@kyfw/db/testing';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');
const WORKER = path.resolve(import.meta.dirname, '../src/worker.ts');

function run(script: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [script], {
    // Only what the process needs: no DATABASE_URL or other variables leaking in from the shell.
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function waitForOutput(
  { child, output }: { child: ChildProcess; output: () => string },
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = output().match(pattern);
    if (match) return match;
    if (child.exitCode !== null)
      throw new Error(`exited with ${child.exitCode} before ${pattern}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('process entry points', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('main exits 1 listing every bad variable', async () => {
    const { child, output } = run(MAIN, { PORT: '-1', WORKER_CONCURRENCY: '0', LOG_LEVEL: 'loud' });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toMatch(/- PORT: .*\n\s+- LOG_LEVEL: .*\n\s+- WORKER_CONCURRENCY: /);
  });

  it('worker refuses to run without DATABASE_URL', async () => {
    const { child, output } = run(WORKER, {});
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('DATABASE_URL');
  });

  it('main migrates, serves, and shuts down cleanly on SIGTERM', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kyfw-main-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      JOB_LEASE_SECONDS: '45',
    };
    // In the PostgreSQL run, start on an empty database of that server (the migrations run at start).
    if (process.env.DATABASE_URL) {
      const temp = await createTempPostgresDatabase(process.env.DATABASE_URL);
      cleanups.push(temp.drop);
      env.DATABASE_URL = temp.url;
    }
    const main = run(MAIN, env);
    const { child, output } = main;
    try {
      const [, url] = await waitForOutput(main, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/, 150_000);
      // PORT=0: the line names the port this process really listens on, not 0 or the public URL's.
      const port = new URL(url).port;
      await waitForOutput(
        main,
        new RegExp(`kyfw 已启动：\\S+（本进程 http://127\\.0\\.0\\.1:${port}，pid \\d+）`),
        10_000,
      );

      const res = await fetch(`${url}/kyfw/web/v1/home/homeInfo`, { headers: { terminal: 'PC' } });
      const body = (await res.json()) as { code: number; data: { webInfo: { name: string } } };
      expect(body.code).toBe(0);
      expect(body.data.webInfo.name).toBeTruthy();
      expect(output()).toContain('job worker started');
      expect(output()).toMatch(/"leaseMs":45000.*job worker started/);

      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
      expect(output()).toContain('shutdown complete');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
