import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type DbHandle } from './create-db.ts';
import { migrate } from './migrate.ts';
import { seed } from './seed.ts';

/**
 * A fresh, migrated and seeded database for one test file.
 *
 * Without DATABASE_URL: in-memory PGlite. With DATABASE_URL (CI's PostgreSQL run): a throwaway
 * database `kyfw_t_<random>` created on that server and dropped by `close()`, so test files never
 * see each other's rows and the same tests exercise both modes.
 */
export async function createTestDb(databaseUrl = process.env.DATABASE_URL): Promise<DbHandle> {
  if (!databaseUrl) return prepare(await createDb({ memory: true }));

  const name = `kyfw_t_${randomBytes(6).toString('hex')}`;
  await runAdmin(databaseUrl, `create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: url.toString(), poolSize: 5 });
  const drop = async () => {
    await handle.close();
    // FORCE (PostgreSQL 13+) ends sessions a test may have left open.
    await runAdmin(databaseUrl, `drop database if exists ${name} with (force)`);
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
