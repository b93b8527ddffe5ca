-- AI thesis writing (issue 13, apps/server/src/modules/writing): one row per piece of writing a
-- student starts (topic -> title -> outline -> abstract -> paid full text -> .docx). The outline,
-- the abstract, the numbered sources and the written sections are JSON the module validates with
-- zod; the sections are saved one by one as the full-text job writes them, so a restarted job
-- continues where it stopped. All times are written by the server's clock.
create table writings (
  id uuid primary key default gen_random_uuid(),
  -- Account rows are kept (de-identified) when an account is deleted, so no cascade.
  user_id uuid not null references users (id),
  area text not null check (area in ('dissertation', 'proposal', 'assignment', 'journalsReviewed')),
  topic text not null check (char_length(topic) between 2 and 200),
  title text check (title is null or char_length(title) between 2 and 200),
  discipline text not null default '' check (char_length(discipline) <= 50),
  degree text not null default '' check (char_length(degree) <= 20),
  language text not null default 'zh' check (language in ('zh', 'en')),
  target_words integer not null check (target_words between 1000 and 100000),
  requirements text not null default '' check (char_length(requirements) <= 2000),
  template_id text not null default 'general',
  -- [{name, wordCount, form, formula, code, picture, children: [...]}] (spec §3), three levels.
  outline jsonb,
  -- {zh, en, keywordsZh: [], keywordsEn: []}
  abstract jsonb,
  -- The numbered sources the draft may cite: [{n, title, authors, year, source, origin}].
  sources jsonb not null default '[]',
  -- Written sections in outline order: [{path, heading, level, text, removedCitations}].
  sections jsonb not null default '[]',
  -- The full-text order (goods ai_writing_<area>); null until the student orders it.
  order_id uuid unique references orders (id),
  status text not null default 'draft' check (status in ('draft', 'ordered', 'writing', 'done', 'failed')),
  progress smallint not null default 0 check (progress between 0 and 100),
  failure_reason text check (char_length(failure_reason) <= 500),
  -- Whether this writing's outline was generated on the account's free outline (ai_writing_trial).
  free_outline boolean not null default false,
  outlines_generated integer not null default 0 check (outlines_generated >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz,
  hidden_at timestamptz,
  check ((status = 'failed') = (failure_reason is not null))
);

create index writings_user_idx on writings (user_id, created_at desc) where hidden_at is null;
