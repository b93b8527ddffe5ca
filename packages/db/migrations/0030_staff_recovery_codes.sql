-- Staff management from the console (issue 15): recovery codes, the TOTP secret encrypted at rest,
-- and who created an account.
--
-- The TOTP secret is now stored encrypted (AES-256-GCM under STAFF_SECRET_KEY, outside the
-- database: "enc1:<iv>.<tag>.<ciphertext>"), which is longer than the base32 secret; a row still
-- holding a plain base32 secret (created before) is encrypted at its next successful login.
alter table staff_accounts drop constraint staff_accounts_totp_secret_check;
alter table staff_accounts add constraint staff_accounts_totp_secret_check
  check (char_length(totp_secret) between 16 and 200);
alter table staff_accounts add column created_by text;
alter table staff_accounts add column last_login_at timestamptz;

-- One-time recovery codes, usable instead of a TOTP code: only an HMAC of each is kept (under the
-- same key), and a used code is marked, never accepted again.
create table staff_recovery_codes (
  staff_id text not null references staff_accounts (id) on delete cascade,
  code_digest text not null check (char_length(code_digest) = 64),
  used_at timestamptz,
  primary key (staff_id, code_digest)
);
