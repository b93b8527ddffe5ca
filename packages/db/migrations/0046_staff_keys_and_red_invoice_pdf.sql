-- Issue 15, two operator-side changes (one migration number):
--
-- 1. STAFF_SECRET_KEY rotation. The recovery codes are kept as HMACs whose key was derived from
--    STAFF_SECRET_KEY; an HMAC cannot be re-computed without the code, so rotating the key moves
--    that MAC key into the database, sealed (AES-256-GCM) under the new STAFF_SECRET_KEY like a
--    TOTP secret. No row: the MAC key is still the one derived from the key (as before).
create table staff_sealed_keys (
  name text primary key check (name in ('recovery-mac')),
  sealed text not null check (char_length(sealed) between 20 and 400),
  updated_at timestamptz not null default now()
);

-- 2. The red invoice's PDF (红字发票) of a recorded 红冲, attached by finance: the stored file's key.
--    Only on an invoice whose 红冲 is recorded; cleared (and the file deleted) with the account.
alter table invoices add column reversal_pdf_file_key text;
alter table invoices add constraint invoices_reversal_pdf_recorded
  check (reversal_pdf_file_key is null or reversed_at is not null);
