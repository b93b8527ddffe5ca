/**
 * The PostgreSQL index's tables for the engine's own tests and the benchmark, which open the index
 * in throwaway databases (PGlite, a schema of their own) rather than in the service's database. The
 * tables are made by packages/db's migration 0012 — the one place they are defined — so this runs
 * that file's statements as they are (it holds plain DDL, no function bodies: splitting at `;` after
 * dropping comment lines is enough).
 */
import { readFileSync } from 'node:fs';

export const PG_INDEX_MIGRATION = new URL('../../../db/migrations/0012_simcheck_index.sql', import.meta.url);

/** The migration's statements. */
export function pgIndexTableStatements(): string[] {
  return readFileSync(PG_INDEX_MIGRATION, 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Runs the migration's statements on `db` (idempotent, as the migration is). */
export async function createPgIndexTables(db: {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}): Promise<void> {
  for (const statement of pgIndexTableStatements()) await db.query(statement);
}
