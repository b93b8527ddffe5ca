// Starts the real server (embedded mode: PGlite in a throwaway DATA_DIR, sandbox providers) as a
// child process on a free loopback port, the way `npm start` runs it, and stops it afterwards.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDb, MIGRATIONS_DIR, migrate, seed } from '@kyfw/db';

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

/** Where the migrated template of the current migrations and seed lives (it may not exist yet). */
function templatePath(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  }
  hash.update(readFileSync(join(repoRoot, 'packages/db/src/seed.ts')));
  return join(tmpdir(), `kyfw-e2e-pglite-${hash.digest('hex').slice(0, 16)}`);
}

/**
 * A migrated and seeded embedded database (DATA_DIR/pglite), made once per set of migrations and
 * seed and kept in the temp folder (the e2e project's globalSetup makes it before the journeys):
 * every journey's server, and the CLIs a journey runs on its data folder first, start on a copy of
 * it instead of running initdb and every migration (a minute and more each on a busy 2-core machine).
 */
export async function ensureMigratedTemplate(): Promise<string> {
  const template = templatePath();
  if (existsSync(template)) return template;
  const work = join(tmpdir(), `kyfw-e2e-pglite-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await createDb({ dataDir: work });
  try {
    await migrate(handle.db);
    await seed(handle.db);
  } finally {
    await handle.close();
  }
  // Renamed into place whole, so a parallel run never copies a half-made template.
  try {
    renameSync(join(work, 'pglite'), template);
  } catch (error) {
    if (!existsSync(template)) throw error;
  }
  rmSync(work, { recursive: true, force: true });
  return template;
}

/** Gives `dataDir` a copy of the migrated template unless it has a database already (or no template exists yet). */
export function fromMigratedTemplate(dataDir: string): void {
  const template = templatePath();
  const target = join(dataDir, 'pglite');
  if (existsSync(template) && !existsSync(target)) cpSync(template, target, { recursive: true });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kyfw-e2e-'));
  // A DATA_DIR the journey prepared (a library imported with the CLI) keeps its own database.
  const effectiveDataDir = env.DATA_DIR ?? dataDir;
  if (!env.DATABASE_URL) {
    await ensureMigratedTemplate();
    fromMigratedTemplate(effectiveDataDir);
  }
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
