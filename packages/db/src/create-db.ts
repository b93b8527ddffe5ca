import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type CreateDbOptions =
  /** Embedded PGlite persisted under `${dataDir}/pglite`. */
  | { dataDir: string }
  /** A PostgreSQL server (scaled mode). */
  | { databaseUrl: string; poolSize?: number; onPoolError?: (error: Error) => void }
  /** Throwaway in-memory PGlite (tests). */
  | { memory: true };

export interface DbHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** Closes the pool or the embedded database; safe to call twice. */
  close(): Promise<void>;
}

const PG_INT8_OID = 20;

/**
 * Opens the database for either mode. Both return the same `Kysely<Database>`, so nothing above
 * this function knows which one it talks to.
 *
 * PGlite is a single PostgreSQL session. Kysely's own PGliteDialect (built into kysely >= 0.28)
 * declares `supportsMultipleConnections = false`, so Kysely hands the one connection out under a
 * mutex: a transaction holds it until commit/rollback and no other query is interleaved into it.
 */
export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  if ('databaseUrl' in options) return openPostgres(options);

  let pglite: PGlite;
  if ('dataDir' in options) {
    const dir = path.resolve(options.dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    pglite = await PGlite.create({ dataDir: dir });
  } else {
    pglite = await PGlite.create();
  }
  return wrapPGlite(pglite);
}

/** A DbHandle over an already created PGlite instance (tests load prepared data directories). */
export function wrapPGlite(pglite: PGlite): DbHandle {
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: 'pglite', close: once(() => db.destroy()) };
}

function openPostgres(options: {
  databaseUrl: string;
  poolSize?: number;
  onPoolError?: (error: Error) => void;
}): DbHandle {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    // PGlite returns int8 (count(*), sums) as numbers; pg would return strings. Parse them the
    // same way so code behaves identically in both modes. Our int8 values are counts, far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client whose server connection drops emits 'error' on the pool; unhandled it would
  // crash the process. pg discards that client and the next query opens a new connection.
  pool.on(
    'error',
    options.onPoolError ?? ((error) => console.error('[db] idle client error:', error.message)),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: once(() => db.destroy()) };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}
