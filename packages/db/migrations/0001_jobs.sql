-- Durable job queue shared by the in-process worker (embedded mode) and worker processes (scaled
-- mode). Workers claim rows with FOR UPDATE SKIP LOCKED and hold a lease (locked_until); a row
-- whose lease ran out belongs to a crashed worker and is claimed again.
create table jobs (
  id uuid primary key default gen_random_uuid(),
  name text not null check (name <> ''),
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  attempts integer not null default 0 check (attempts >= 0),
  max_attempts integer not null default 5 check (max_attempts >= 1),
  run_at timestamptz not null default now(),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  progress integer not null default 0 check (progress between 0 and 100),
  progress_text text,
  result jsonb,
  -- Idempotent enqueue: a second enqueue with the same key returns the first job.
  dedupe_key text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  -- A running job always has an owner and a lease; nothing else has one.
  check ((status = 'running') = (locked_by is not null and locked_until is not null))
);

-- The two halves of the claim query: due queued jobs, and running jobs whose lease expired.
create index jobs_queued_run_at_idx on jobs (run_at) where status = 'queued';
create index jobs_running_lease_idx on jobs (locked_until) where status = 'running';
-- Housekeeping deletes finished jobs by age.
create index jobs_finished_at_idx on jobs (finished_at) where finished_at is not null;
