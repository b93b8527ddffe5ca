/**
 * PostgreSQL for the `simcheck-pg` engine: where the server comes from, and one schema per index.
 *
 * Server: the URL given (`--database-url=` or DATABASE_URL), or else a throwaway server started
 * here the way scripts/test-pg.sh does it — Debian's binaries found (or installed, as root) by
 * scripts/ensure-postgres.sh, `initdb` into a temp folder, `pg_ctl start` on a free loopback port
 * with fsync off, run as the `postgres` user when we are root — and stopped at the end.
 *
 * Indexes: each build gets a schema of its own (`simcheck_bench_<run>_<what>`) with the tables of
 * packages/db's migration 0012 (pg-tables.ts), reached through a
 * connection URL whose `options` set `search_path` to it, so the engine opens it exactly as the
 * service and the CLI do (`createPgIndex(url)`); runs never see each other's tables and document
 * numbers start from 1 as in a fresh local index. Schemas are dropped at the end of the run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPgIndexTables } from './pg-tables.ts';

const ROOT = new URL('../../../../', import.meta.url).pathname;

export interface PgServer {
  /** connection URL of the server (its default search_path) */
  url: string;
  /** where it came from, for the table: "DATABASE_URL", "--database-url", "throwaway server …" */
  source: string;
  /** server_version, e.g. "17.6 (Debian 17.6-0+deb13u1)" */
  version: string;
  throwaway: boolean;
  /** stop a throwaway server and delete its folder (nothing for a given server); idempotent */
  stop(): Promise<void>;
  /** leave a throwaway server running (--keep-indexes); returns how to stop it by hand */
  detach(): string;
}

/** The given URL (flag wins over DATABASE_URL), or a throwaway server. Throws with the reason. */
export async function acquirePgServer(opts: {
  flagUrl?: string;
  envUrl?: string;
  log: (s: string) => void;
}): Promise<PgServer> {
  const given = opts.flagUrl ?? opts.envUrl;
  if (given) {
    const source = opts.flagUrl ? '--database-url' : 'DATABASE_URL';
    let version: string;
    try {
      version = await serverVersion(given);
    } catch (err) {
      throw new Error(`cannot connect to the server in ${source}: ${(err as Error).message}`);
    }
    return {
      url: given,
      source,
      version,
      throwaway: false,
      stop: async () => {},
      detach: () => '',
    };
  }
  return startThrowawayServer(opts.log);
}

async function serverVersion(url: string): Promise<string> {
  const rows = await adminQuery(url, 'SHOW server_version');
  return String(rows[0]?.server_version ?? '?');
}

interface Proc {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  cmd: string,
  args: string[],
  opts: { uid?: number; gid?: number; cwd?: string } = {},
): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function mustRun(what: string, cmd: string, args: string[], opts: Parameters<typeof run>[2] = {}) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) {
    const detail = (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} failed (exit ${r.code})${detail ? `: ${detail}` : ''}`);
  }
  return r;
}

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** uid/gid of the `postgres` system user (PostgreSQL refuses to run as root). */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('we run as root and there is no postgres system user to run the server as');
  const f = line.split(':');
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

async function startThrowawayServer(log: (s: string) => void): Promise<PgServer> {
  log(
    'PostgreSQL: no DATABASE_URL; starting a throwaway server (scripts/ensure-postgres.sh, initdb, pg_ctl)',
  );
  const ensured = await run('bash', [join(ROOT, 'scripts/ensure-postgres.sh')]);
  if (ensured.stderr.trim()) log(`PostgreSQL: ${ensured.stderr.trim()}`);
  if (ensured.code !== 0) {
    const why = ensured.stderr.trim().split('\n').pop() || `exit ${ensured.code}`;
    throw new Error(`no PostgreSQL binaries (scripts/ensure-postgres.sh: ${why})`);
  }
  const bin = ensured.stdout.trim().split('\n').pop()!;
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'kyfw-bench-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const as = { ...(user ?? {}), cwd: dir };
  const data = join(dir, 'data');
  let running = false;
  let detached = false;
  const stopSync = () => {
    // process exit (an error or a signal before the end): no time for anything asynchronous
    if (detached) return;
    if (running) {
      try {
        execFileSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop'], {
          stdio: 'ignore',
          ...as,
        });
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // pg_ctl puts the server in a session of its own, so Ctrl-C would not reach it: stop it here
  const onSignal = (signal: NodeJS.Signals) => {
    stopSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const unhook = () => {
    process.off('exit', stopSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  try {
    await mustRun(
      'initdb',
      join(bin, 'initdb'),
      ['-D', data, '-A', 'trust', '-U', 'kyfw', '-E', 'UTF8', '--locale=C.UTF-8'],
      as,
    );
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freeLoopbackPort();
      const started = await run(
        join(bin, 'pg_ctl'),
        [
          '-D',
          data,
          '-l',
          join(dir, 'log'),
          '-w',
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
          'start',
        ],
        as,
      );
      if (started.code === 0) break;
      // someone took the port between our look and the server's bind: try another one
      if (attempt >= 3) {
        const tail = readLogTail(join(dir, 'log'));
        throw new Error(`pg_ctl start failed (exit ${started.code}): ${tail}`);
      }
    }
    running = true;
    process.on('exit', stopSync);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const url = `postgres://kyfw@127.0.0.1:${port}/postgres`;
    const version = await serverVersion(url);
    log(`PostgreSQL ${version} on 127.0.0.1:${port} (throwaway, ${dir})`);
    let stopped: Promise<void> | undefined;
    return {
      url,
      source: `throwaway server on 127.0.0.1 (fsync=off)`,
      version,
      throwaway: true,
      stop: () =>
        (stopped ??= (async () => {
          if (detached) return;
          await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], as);
          running = false;
          rmSync(dir, { recursive: true, force: true });
          unhook();
        })()),
      detach: () => {
        detached = true;
        unhook();
        const stop = `${join(bin, 'pg_ctl')} -D ${data} stop`;
        return `${user ? `su postgres -s /bin/bash -c '${stop}'` : stop} && rm -rf ${dir}`;
      },
    };
  } catch (err) {
    stopSync();
    unhook();
    throw err;
  }
}

function readLogTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return 'no server log';
  }
}

/** One statement on a short-lived connection. */
export async function adminQuery(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** A lower-case identifier of [a-z0-9_], at most 63 characters (PostgreSQL's limit). */
export function schemaName(runTag: string, what: string): string {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '');
  return `simcheck_bench_${clean(runTag)}_${clean(what)}`.slice(0, 63);
}

/** The same server with `search_path` set to `schema` for every connection made from the URL. */
export function urlWithSearchPath(url: string, schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  const u = new URL(url);
  const before = u.searchParams.get('options');
  u.searchParams.set('options', `${before ? `${before} ` : ''}-c search_path=${schema}`);
  return u.toString();
}

/** A fresh schema holding the index's tables (made by packages/db's migration, see pg-tables.ts). */
export async function createSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await adminQuery(url, `CREATE SCHEMA ${schema}`);
  const client = new pg.Client({
    connectionString: urlWithSearchPath(url, schema),
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    await createPgIndexTables(client);
  } finally {
    await client.end();
  }
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/** Bytes of the schema's tables: pg_total_relation_size (heap, indexes, TOAST) summed. */
export async function schemaTablesSize(url: string, schema: string): Promise<number> {
  const rows = await adminQuery(
    url,
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'm')`,
    [schema],
  );
  return Number(rows[0]?.bytes ?? 0);
}

/** Planner statistics for the schema's tables (what autovacuum does a minute after a bulk load). */
export async function analyzeSchema(url: string, schema: string): Promise<void> {
  const rows = await adminQuery(
    url,
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );
  for (const r of rows) await adminQuery(url, `ANALYZE ${schema}.${String(r.relname)}`);
}

/** Where an index of simcheck-pg lives: written into its index folder before the build. */
export const PG_TARGET_FILE = 'pg-target.json';

export interface PgTarget {
  /** connection URL with `options=-c search_path=<schema>` */
  url: string;
  schema: string;
}

export function writePgTarget(indexDir: string, target: PgTarget): void {
  writeFileSync(join(indexDir, PG_TARGET_FILE), JSON.stringify(target));
}

export function readPgTarget(indexDir: string): PgTarget {
  try {
    return JSON.parse(readFileSync(join(indexDir, PG_TARGET_FILE), 'utf8')) as PgTarget;
  } catch {
    throw new Error(
      `${join(indexDir, PG_TARGET_FILE)} is missing: simcheck-pg runs inside run.ts, which makes its schema`,
    );
  }
}
