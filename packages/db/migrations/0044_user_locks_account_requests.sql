-- Console (issue 15): an operator locks an account (no login by any method, its sessions end) and
-- unlocks it; and the self-service data exports and account deletions are recorded, so the console
-- can show them per user and overall. Nothing personal is kept in account_requests: the account's
-- id (whose row deletion de-identifies, like its orders), the kind and the time.

alter table users add column locked_at timestamptz;
alter table users add column locked_reason text check (char_length(locked_reason) <= 200);
alter table users add constraint users_lock_reason_check check ((locked_at is null) = (locked_reason is null));

alter table sessions drop constraint if exists sessions_revoke_reason_check;
alter table sessions add constraint sessions_revoke_reason_check check (
  revoke_reason in ('logout', 'password_change', 'password_reset', 'account_deleted', 'account_closed', 'account_locked')
);

create table account_requests (
  id bigint generated always as identity primary key,
  user_id uuid not null references users (id),
  kind text not null check (kind in ('export', 'deletion')),
  requested_at timestamptz not null default now()
);

create index account_requests_user_idx on account_requests (user_id, requested_at desc);
create index account_requests_at_idx on account_requests (requested_at desc);
