-- The console's comparison-library screen (issue 15): an operator uploads a file of documents
-- (.jsonl, .jsonl.gz, or a .zip of papers) into a collection, and the import runs as a durable job
-- (library.import) whose progress the page shows. One row per upload: who, which file, where it is
-- kept (file storage) until the import ends, its state and what it did. The documents themselves
-- go to the library (index + check_library_documents / catalog.jsonl) through the same import as
-- `npm run library:import`.
create table library_imports (
  id uuid primary key,
  file_name text not null check (char_length(file_name) between 1 and 255),
  file_key text not null check (char_length(file_key) between 1 and 300),
  file_bytes integer not null check (file_bytes > 0),
  -- `user` holds only papers users opted in at upload: never imported by an operator.
  collection text not null check (collection in ('journal', 'thesis', 'web')),
  status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  progress integer not null default 0 check (progress between 0 and 100),
  progress_text text check (char_length(progress_text) <= 200),
  -- {read, added, skippedExisting, skippedDuplicates, skippedInvalid, characters} once done.
  summary jsonb,
  error text check (char_length(error) <= 1000),
  -- The library.import job that runs it (a job that died for good is shown as failed).
  job_id uuid references jobs (id) on delete set null,
  staff_id text references staff_accounts (id) on delete set null,
  username text not null,
  created_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz
);
create index library_imports_created_idx on library_imports (created_at desc);
