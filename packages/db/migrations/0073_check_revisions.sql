-- Revise in the report (issue 24, decision 0040): a finished similarity check's paper edited
-- paragraph by paragraph in the web report, each edit re-checked at once. The working copy (the
-- draft, version_no null: one per check) is saved as the student types; 保存版本 copies it into a
-- numbered version. `edits` maps a paragraph's index (its line in the checked text) to its new
-- text; paragraphs not named stay as checked. `figures` are the live figures of that text
-- (参考, not a report). Rows go with their check (deleted by /freeCheck/deleteOrder and on account
-- deletion; the foreign key cascades when a check row itself is removed).
create table check_revisions (
  id uuid primary key default gen_random_uuid(),
  check_id uuid not null references checks (id) on delete cascade,
  user_id uuid not null references users (id),
  version_no integer check (version_no between 1 and 1000),
  edits jsonb not null default '{}'::jsonb,
  figures jsonb not null,
  chars integer not null check (chars >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index check_revisions_version on check_revisions (check_id, version_no);
create unique index check_revisions_draft on check_revisions (check_id) where version_no is null;
create index check_revisions_user on check_revisions (user_id);

-- Live re-checks counted per check and China-time day (the per-order and per-account daily limits,
-- RECHECK_PER_ORDER_PER_DAY / RECHECK_PER_ACCOUNT_PER_DAY), shared by every API process.
create table check_recheck_counts (
  check_id uuid not null references checks (id) on delete cascade,
  user_id uuid not null references users (id),
  day date not null,
  count integer not null default 0 check (count >= 0),
  primary key (check_id, day)
);
create index check_recheck_counts_user_day on check_recheck_counts (user_id, day);
