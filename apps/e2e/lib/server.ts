// Starts the real server (embedded mode: PGlite in a throwaway DATA_DIR, sandbox providers) as a
// child process on a free loopback port, the way `npm start` runs it, and stops it afterwards.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../..');

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  webDistDir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => ok(port));
    });
  });
}

async function waitUntilUp(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  // Up to 150 s (the journeys' hook timeout is 180 s): on the shared 2-core machine at a load
  // average of 20 the server's start (migrations into a fresh PGlite) took 40–60 s.
  // E2E_SERVER_START_SECONDS allows more on a machine loaded harder still (with a longer hook).
  const seconds = Number(process.env.E2E_SERVER_START_SECONDS ?? 150);
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/kyfw/web/v1/home/homeInfo`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start within ${seconds} s:\n${output()}`);
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kyfw-e2e-'));
  // WEB_DIST_DIR in the test's environment may point at a private build (default apps/web/dist).
  const webDistDir = env.WEB_DIST_DIR ?? process.env.WEB_DIST_DIR ?? join(repoRoot, 'apps/web/dist');
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(repoRoot, 'apps/server/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      DEVTOOLS_DETERRENT: 'off',
      DATABASE_URL: '',
      ...env,
      WEB_DIST_DIR: webDistDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  await waitUntilUp(baseUrl, child, () => log);
  return {
    baseUrl,
    dataDir,
    webDistDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
