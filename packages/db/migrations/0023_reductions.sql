-- 降重 and 降AIGC (issue 14, apps/server/src/modules/reduction): one row per text a student sends to
-- be rewritten — pasted text, an uploaded document (the check's extraction) or one of the student's
-- own check reports (only its flagged passages). The paragraphs and their rewrites are JSON the
-- module validates; each rewritten paragraph is saved as soon as it passes the fact check, so a
-- restarted job continues after the last saved one. All times are written by the server's clock.
create table reductions (
  id uuid primary key default gen_random_uuid(),
  -- Account rows are kept (de-identified) when an account is deleted, so no cascade.
  user_id uuid not null references users (id),
  -- 'reduction' (降重: the similarity rate down) or 'aigc_reduction' (降AIGC: the AIGC index down).
  kind text not null check (kind in ('reduction', 'aigc_reduction')),
  source text not null check (source in ('text', 'file', 'report')),
  title text not null check (char_length(title) between 1 and 200),
  -- The check report it came from (source 'report').
  check_id uuid,
  -- The uploaded file (source 'file'): its name and storage key (a .docx is edited in place on download).
  file_name text,
  file_key text,
  original_text text not null,
  chars integer not null check (chars > 0),
  -- [{index, text, target}]: the text's paragraphs in order; target: chosen to be rewritten.
  paragraphs jsonb not null default '[]',
  -- [{index, after, outcome, attempts, reason}]: rewritten (or kept) target paragraphs, saved one by one.
  results jsonb not null default '[]',
  -- Measured by the job: the engine's similarity rate and the detector's AIGC index, before and after.
  rate_before real,
  rate_after real,
  aigc_before real,
  aigc_after real,
  -- Whether the rewrites came from the LLM sandbox (template text, never presented as real).
  sandbox boolean not null default false,
  order_id uuid unique references orders (id),
  status text not null default 'ordered' check (status in ('ordered', 'rewriting', 'done', 'failed')),
  progress smallint not null default 0 check (progress between 0 and 100),
  failure_reason text check (char_length(failure_reason) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  hidden_at timestamptz,
  check ((status = 'failed') = (failure_reason is not null))
);

create index reductions_user_idx on reductions (user_id, created_at desc) where hidden_at is null;
