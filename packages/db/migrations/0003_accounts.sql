-- Accounts (issue 3): users, sessions, SMS check codes, login throttling, WeChat QR sessions and
-- events, entitlements from the first binding, inactivity notices. All times are written by the
-- server's clock (tests inject one); the defaults only guard against a forgotten column.

-- One row per account. A deleted or inactivity-closed account keeps its row (orders reference it)
-- but no personal data: phone, WeChat openid, password and profile are cleared, which also frees the
-- phone and the WeChat account for a new registration.
create table users (
  id uuid primary key default gen_random_uuid(),
  phone_number text unique check (phone_number ~ '^1[3-9][0-9]{9}$'),
  -- scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url> of the MD5 hex the browser sends; never the MD5.
  password_hash text check (password_hash ~ '^scrypt\$[0-9]+\$[0-9]+\$[0-9]+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$'),
  wx_open_id text unique check (char_length(wx_open_id) between 1 and 128),
  real_name text check (char_length(real_name) <= 50),
  unit_name text check (char_length(unit_name) <= 100),
  gender text check (gender in ('male', 'female')),
  major text check (char_length(major) <= 50),
  education text check (char_length(education) <= 50),
  status text not null default 'active' check (status in ('active', 'closed', 'deleted')),
  -- Registration and the first WeChat scan are logins too, so this is never null.
  last_login_at timestamptz not null default now(),
  password_changed_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A password is only usable with a phone (login is phone + password).
  check (password_hash is null or phone_number is not null),
  -- An active account can always be reached: by phone or by WeChat.
  check (status <> 'active' or phone_number is not null or wx_open_id is not null),
  -- A closed or deleted account holds no personal data.
  check (
    status = 'active'
    or (phone_number is null and wx_open_id is null and password_hash is null and real_name is null
        and unit_name is null and gender is null and major is null and education is null
        and closed_at is not null)
  )
);

-- The inactivity job scans active accounts by their last login.
create index users_active_last_login_idx on users (last_login_at) where status = 'active';

-- Login sessions. The token (32 random bytes) is handed to the browser once and stored only as its
-- SHA-256, so a copy of this table logs nobody in.
create table sessions (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references users (id) on delete cascade,
  login_method text not null check (login_method in ('password', 'register', 'wechat')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoke_reason text check (
    revoke_reason in ('logout', 'password_change', 'password_reset', 'account_deleted', 'account_closed')
  ),
  user_agent text check (char_length(user_agent) <= 500),
  client_ip text check (char_length(client_ip) <= 64),
  check (expires_at > created_at),
  check ((revoked_at is null) = (revoke_reason is null))
);

create index sessions_user_id_idx on sessions (user_id) where revoked_at is null;
create index sessions_expires_at_idx on sessions (expires_at);

-- SMS check codes (/sendCheckCode). Bound to phone and purpose (the spec's type: 1 register,
-- 2 bind phone, 3 reset password, 4 account deletion) and, for 2 and 4, to the account that asked.
-- Rows also count sends for the per-phone and per-IP limits.
create table sms_codes (
  id uuid primary key default gen_random_uuid(),
  phone text not null check (phone ~ '^1[3-9][0-9]{9}$'),
  purpose text not null check (purpose in ('1', '2', '3', '4')),
  -- SHA-256 of "<id>:<code>"; the code itself is only in the SMS.
  code_hash text not null check (code_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid references users (id) on delete cascade,
  client_ip text not null check (char_length(client_ip) <= 64),
  attempts integer not null default 0 check (attempts between 0 and 5),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz,
  -- Set when a newer code for the same phone and purpose is sent: only the latest code counts.
  superseded_at timestamptz,
  check (expires_at > created_at)
);

create index sms_codes_phone_idx on sms_codes (phone, created_at);
create index sms_codes_client_ip_idx on sms_codes (client_ip, created_at);

-- Phone + password login attempts, for slowing down and then locking out repeated failures per
-- phone and per client IP. Attempts for unregistered phones count the same, so a lockout says
-- nothing about whether a phone is registered.
create table login_attempts (
  id bigint generated always as identity primary key,
  phone text not null check (phone ~ '^1[3-9][0-9]{9}$'),
  client_ip text not null check (char_length(client_ip) <= 64),
  succeeded boolean not null,
  created_at timestamptz not null default now()
);

create index login_attempts_phone_idx on login_attempts (phone, created_at);
create index login_attempts_client_ip_idx on login_attempts (client_ip, created_at);

-- Generic sliding-window counters of the accounts module (QR creation and phone look-ups per IP).
-- Kept in the database so that several API processes share one count.
create table account_rate_events (
  id bigint generated always as identity primary key,
  action text not null check (action in ('qr_code', 'query_phone')),
  subject text not null check (char_length(subject) <= 100),
  created_at timestamptz not null default now()
);

create index account_rate_events_idx on account_rate_events (action, subject, created_at);

-- WeChat parametric-QR sessions: login (/qrCode), bind (/weixin/wx/getBindingRCode) and account
-- deletion by re-scan. `id` is the spec's `userId`: 32 random bytes, base64url. A login session
-- belongs to the browser that asked (hash of its kyfw_qr cookie); bind and delete sessions belong
-- to the logged-in account that asked.
create table wechat_login_sessions (
  id text primary key check (id ~ '^[A-Za-z0-9_-]{43}$'),
  kind text not null check (kind in ('login', 'bind', 'delete')),
  scene text not null unique check (char_length(scene) between 1 and 64),
  ticket text not null,
  requester_hash text check (requester_hash ~ '^[0-9a-f]{64}$'),
  requester_user_id uuid references users (id) on delete cascade,
  -- pending -> done (scanned; login: account known) -> claimed (login: token handed out once);
  -- pending -> failed (bind: WeChat already bound elsewhere; delete: another WeChat scanned).
  status text not null default 'pending' check (status in ('pending', 'done', 'claimed', 'failed')),
  failure text check (failure in ('open_id_taken', 'open_id_mismatch', 'account_unavailable')),
  user_id uuid references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  completed_at timestamptz,
  check ((kind = 'login') = (requester_hash is not null)),
  check ((kind = 'login') = (requester_user_id is null)),
  check ((status = 'failed') = (failure is not null)),
  check (status = 'pending' or completed_at is not null)
);

create index wechat_login_sessions_expires_at_idx on wechat_login_sessions (expires_at);

-- WeChat event pushes already handled. WeChat retries a push it got no answer for (three times in
-- 15 s) and an attacker may replay a captured one: the key (SHA-256 of FromUserName, CreateTime,
-- Event and EventKey, the platform's documented de-duplication) makes the second delivery a no-op.
create table wechat_events (
  dedupe_key text primary key check (dedupe_key ~ '^[0-9a-f]{64}$'),
  event text not null check (char_length(event) <= 50),
  scene text check (char_length(scene) <= 64),
  received_at timestamptz not null default now()
);

create index wechat_events_received_at_idx on wechat_events (received_at);

-- Free services earned by binding (spec §1): one similarity check, one AIGC detection and an
-- AI-writing trial. Granted as a set once per account, by its first binding of a phone or WeChat;
-- unique (user_id, kind) makes a second grant impossible. Consumed once each by later services.
create table entitlements (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('free_check', 'free_aigc_detection', 'ai_writing_trial')),
  granted_by text not null check (granted_by in ('phone_bind', 'wechat_bind')),
  granted_at timestamptz not null default now(),
  used_at timestamptz,
  -- What consumed it (e.g. an order id), so a failed service can give it back.
  used_for text check (char_length(used_for) <= 100),
  unique (user_id, kind),
  check (used_for is null or used_at is not null)
);

-- Notices to accounts before they are closed for inactivity (terms: 12 months without login).
-- One notice per inactivity period: keyed by the last login it is about, so a later login and a
-- new period give a new notice.
create table account_notices (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('inactivity')),
  channel text not null check (channel in ('sms', 'record')),
  last_login_at timestamptz not null,
  sent_at timestamptz not null,
  close_after timestamptz not null,
  unique (user_id, kind, last_login_at),
  check (close_after > sent_at)
);
