-- The similarity engine's PostgreSQL index (scaled mode; @kyfw/simcheck/pg reads and writes these
-- tables, packages/simcheck/README.md describes them). Until this migration the engine created them
-- itself when it opened the index, so a database may already hold them: every statement is
-- idempotent and leaves existing tables and their rows as they are.
--
--   simcheck_meta          key/value: the fingerprint parameters the index was built with, and the
--                          mark of a bulk load under way ('bulk_load')
--   simcheck_documents     doc_no (from a sequence, never reused), id (unique), title, text, chars
--   simcheck_fingerprints  (hash, doc_no, pos); no foreign key: a per-row check would dominate bulk
--                          loading, and a document's rows are deleted with it in one transaction
create table if not exists simcheck_meta (key text primary key, value text not null);

create sequence if not exists simcheck_doc_no_seq;

create table if not exists simcheck_documents (
  doc_no bigint primary key,
  id text not null unique,
  title text,
  text text not null,
  chars integer not null check (chars >= 0),
  added_at timestamptz not null default now()
);

create table if not exists simcheck_fingerprints (
  hash bigint not null,
  doc_no bigint not null,
  pos integer not null
);

-- The lookup index holds whole rows, so a check's lookup is an index-only scan per hash; the one on
-- doc_no serves removal. A bulk load drops both and builds them at its end (PgIndex.finishBulkLoad,
-- with these names and columns). A library indexed by an earlier version of the engine had an index
-- on hash alone: it gets the lookup index here and loses the old one (the one-time index upgrade the
-- README mentions; at 200,000 documents building it takes about a minute).
create index if not exists simcheck_fingerprints_lookup_idx on simcheck_fingerprints (hash, doc_no, pos);

create index if not exists simcheck_fingerprints_doc_idx on simcheck_fingerprints (doc_no);

drop index if exists simcheck_fingerprints_hash_idx;
