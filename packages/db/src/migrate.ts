import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { splitSqlStatements } from './split-sql.ts';

/** packages/db/migrations: plain SQL files named NNNN_<topic>.sql. */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../migrations');

/**
 * Key of the session advisory lock that serialises migration runs across processes. Any constant
 * works as long as nothing else uses it; this one spells "kyfw" in ASCII.
 */
const MIGRATION_LOCK_KEY = 0x6b796677;

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateOptions {
  /** Defaults to packages/db/migrations. */
  migrationsDir?: string;
  /** Called once per migration applied by this run. */
  onApplied?: (migration: { version: string; name: string }) => void;
}

/** Reads and orders the migration files; throws on a misnamed file or a duplicate number. */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: MigrationFile[] = [];
  for (const file of entries) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new Error(`Migration file ${file} is not named NNNN_<topic>.sql`);
    const [, version, name] = match;
    if (migrations.some((m) => m.version === version)) {
      throw new Error(`Two migrations share the number ${version}`);
    }
    const text = await readFile(path.join(dir, file), 'utf8');
    migrations.push({ version, name, sql: text, checksum: sha256(text) });
  }
  return migrations;
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in order, each in its own
 * transaction. A session advisory lock is held for the whole run on one connection, so several
 * processes starting at once apply each migration exactly once and none of them proceeds with a
 * half-migrated schema. (On PGlite there is a single session; the lock is then trivially ours.)
 *
 * Throws when an applied migration's file has changed since it ran: migrations are append-only.
 * Returns the versions applied by this call.
 */
export async function migrate(db: Kysely<Database>, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = await readMigrations(options.migrationsDir);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(conn);
    try {
      await sql`
        create table if not exists schema_migrations (
          version text primary key,
          name text not null,
          checksum text not null,
          applied_at timestamptz not null default now()
        )`.execute(conn);
      const applied = new Map(
        (await conn.selectFrom('schema_migrations').select(['version', 'checksum']).execute()).map((r) => [
          r.version,
          r.checksum,
        ]),
      );
      const done: string[] = [];
      for (const migration of migrations) {
        const checksum = applied.get(migration.version);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            throw new Error(
              `Migration ${migration.version}_${migration.name} was changed after it was applied; add a new migration instead`,
            );
          }
          continue;
        }
        await conn.transaction().execute(async (trx) => {
          for (const statement of splitSqlStatements(migration.sql)) {
            await sql.raw(statement).execute(trx);
          }
          await trx
            .insertInto('schema_migrations')
            .values({ version: migration.version, name: migration.name, checksum: migration.checksum })
            .execute();
        });
        done.push(migration.version);
        options.onApplied?.({ version: migration.version, name: migration.name });
      }
      return done;
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(conn);
    }
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
