-- The operator console (apps/server/src/modules/console, docs/decisions: staff auth): staff
-- accounts separate from customers, their sessions, and the append-only audit log of every
-- operator action. Passwords under scrypt; session tokens as SHA-256 only; the TOTP secret is kept
-- (base32) because verifying a code needs it.
create table staff_accounts (
  id text primary key,
  username text not null unique check (username ~ '^[a-z][a-z0-9_.-]{2,31}$'),
  role text not null check (role in ('admin', 'finance', 'fulfilment', 'editor', 'support')),
  password_hash text not null,
  totp_secret text not null check (char_length(totp_secret) between 16 and 64),
  -- Consecutive failed logins; at the limit the account is locked until locked_until.
  failed_logins integer not null default 0 check (failed_logins >= 0),
  locked_until timestamptz,
  -- The last TOTP time step accepted: a code is never accepted twice.
  last_totp_step bigint,
  disabled boolean not null default false,
  created_at timestamptz not null default now()
);

create table staff_sessions (
  token_hash text primary key check (char_length(token_hash) = 64),
  staff_id text not null references staff_accounts (id) on delete cascade,
  created_at timestamptz not null,
  -- Idle expiry, moved forward by each use but never past created_at + the absolute lifetime.
  expires_at timestamptz not null,
  ip text
);
create index staff_sessions_staff_idx on staff_sessions (staff_id);

-- Who (staff id, username and role at the time), when, what (action, target), the outcome, the
-- state before/after, and from where (IP, user agent). Append-only: no code path updates or deletes
-- a row, and the trigger below refuses it in the database too.
create table audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  staff_id text,
  username text,
  role text,
  action text not null check (char_length(action) between 1 and 60),
  target text,
  outcome text not null check (outcome in ('ok', 'refused', 'failed')),
  before jsonb,
  after jsonb,
  detail jsonb,
  ip text,
  user_agent text
);
create index audit_log_at_idx on audit_log (at desc);
create index audit_log_staff_idx on audit_log (username, at desc);

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only';
end
$$;
create trigger audit_log_no_change before update or delete on audit_log
  for each row execute function audit_log_append_only();
