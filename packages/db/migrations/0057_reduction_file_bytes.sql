-- The size of a 降重 upload kept in storage (a .docx edited in place on download), so the
-- per-account storage quota of uploads (ACCOUNT_STORAGE_QUOTA_MB, issue 22) can count it like the
-- papers of checks, commission attachments and payment proofs. Rows from before count 0.
alter table reductions
  add column file_bytes integer not null default 0 check (file_bytes >= 0);
