import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDb, type DbHandle, wrapPGlite } from './create-db.ts';
import { migrate, readMigrations } from './migrate.ts';
import { seed } from './seed.ts';

/**
 * A fresh, migrated and seeded database for one test file.
 *
 * Without DATABASE_URL: in-memory PGlite. With DATABASE_URL (CI's PostgreSQL run): a throwaway
 * database `kyfw_t_<random>` created on that server and dropped by `close()`, so test files never
 * see each other's rows and the same tests exercise both modes.
 */
export async function createTestDb(databaseUrl = process.env.DATABASE_URL): Promise<DbHandle> {
  if (!databaseUrl) return prepare(await createMigratedPGlite());

  const temp = await createTempPostgresDatabase(databaseUrl);
  const handle = await createDb({ databaseUrl: temp.url, poolSize: 5 });
  const drop = async () => {
    await handle.close();
    await temp.drop();
  };
  try {
    await prepare(handle);
  } catch (error) {
    await drop();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return { ...handle, close: () => (closed ??= drop()) };
}

/**
 * In-memory PGlite with all migrations applied. Creating a PGlite database runs initdb, which takes
 * seconds (tens of seconds on a busy machine), so the first call dumps a migrated data directory
 * to the temp folder, keyed by the migrations' checksums, and later calls — other test files, other
 * runs — load that dump instead.
 */
async function createMigratedPGlite(): Promise<DbHandle> {
  const migrations = await readMigrations();
  const key = createHash('sha256')
    .update(migrations.map((m) => `${m.version}:${m.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const templatePath = path.join(os.tmpdir(), `kyfw-pglite-template-${key}.tar`);

  const dump = await readFile(templatePath).catch(() => undefined);
  if (dump) {
    try {
      return wrapPGlite(await PGlite.create({ loadDataDir: new Blob([dump]) }));
    } catch {
      // A damaged template: fall through and rebuild it.
    }
  }

  const pglite = await PGlite.create();
  const handle = wrapPGlite(pglite);
  await migrate(handle.db);
  const fresh = await pglite.dumpDataDir('none');
  // Write then rename, so a parallel test file never reads a half-written template.
  const partial = `${templatePath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, Buffer.from(await fresh.arrayBuffer()));
  await rename(partial, templatePath);
  return handle;
}

/**
 * Creates an empty database `kyfw_t_<random>` on the server of `adminUrl` and returns its URL;
 * `drop()` removes it, ending any sessions still connected.
 */
export async function createTempPostgresDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `kyfw_t_${randomBytes(6).toString('hex')}`;
  await runAdmin(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE (PostgreSQL 13+) ends sessions a test may have left open.
    drop: () => runAdmin(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function prepare(handle: DbHandle): Promise<DbHandle> {
  await migrate(handle.db);
  await seed(handle.db);
  return handle;
}

async function runAdmin(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
