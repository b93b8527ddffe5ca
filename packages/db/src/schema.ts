import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Kysely table types, one interface per table of packages/db/migrations. Column names are the
 * database's snake_case; repositories map rows to camelCase.
 *
 * jsonb columns are written as JSON text (JSON.stringify) and read back parsed: pg would turn a JS
 * array parameter into a PostgreSQL array literal, so passing text is the one form both drivers
 * agree on.
 */

/** timestamptz: read as Date; written as Date or ISO text. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** timestamptz with a database default. */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobsTable {
  id: Generated<string>;
  name: string;
  payload: ColumnType<unknown, string | undefined, string>;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: GeneratedTimestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  progress: Generated<number>;
  progress_text: string | null;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  dedupe_key: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  finished_at: Timestamp | null;
}

export interface SiteSettingsTable {
  id: Generated<number>;
  name: string;
  contact_phone: string;
  company_address: string;
  qr_code: string;
  record_number: string;
  copyright: string;
  updated_at: GeneratedTimestamp;
}

export interface FriendLinksTable {
  id: Generated<number>;
  name: string;
  url: string;
  sort_order: Generated<number>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  name: string;
  checksum: string;
  applied_at: GeneratedTimestamp;
}

export interface Database {
  jobs: JobsTable;
  site_settings: SiteSettingsTable;
  friend_links: FriendLinksTable;
  schema_migrations: SchemaMigrationsTable;
}

export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type JobRowUpdate = Updateable<JobsTable>;
export type SiteSettingsRow = Selectable<SiteSettingsTable>;
export type FriendLinkRow = Selectable<FriendLinksTable>;
