// Re-exported so apps query through one Kysely copy without depending on kysely themselves.
export {
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
export { type CreateDbOptions, createDb, type DbHandle, wrapPGlite } from './create-db.ts';
export {
  MIGRATIONS_DIR,
  type MigrateOptions,
  type MigrationFile,
  migrate,
  readMigrations,
} from './migrate.ts';
export * from './schema.ts';
export { DEFAULT_FRIEND_LINKS, DEFAULT_SITE_SETTINGS, seed } from './seed.ts';
export { splitSqlStatements } from './split-sql.ts';
