-- Per-client request limits (uploads, report verification, unknown API paths) shared by every API
-- process of the scaled mode: one row per limited bucket (route and client) with the start of its
-- current window and the hits in it, counted with an atomic upsert. Old rows are deleted as they age.
create table rate_limit_hits (
  bucket text primary key,
  window_start timestamptz not null,
  hits integer not null check (hits > 0)
);
create index rate_limit_hits_window_start on rate_limit_hits (window_start);
