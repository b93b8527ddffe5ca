-- Issue 22, part 1 — commission e-mail notices are sent at least once: a worker claims a notice
-- (pending -> sending) with a lease until `claimed_until`; a worker killed mid-send leaves it
-- `sending`, and once the lease has run out the job's retry claims it again and sends it — with the
-- same Message-ID (`<commission-notice.<id>@<host>>`), so a mail that did leave before the crash is
-- recognisable as the same message. A notice still `sending` after its lease with no job to retry
-- it (and a `failed` one) is listed in the console's 任务 screen, where it can be sent again.
alter table commission_notices add column claimed_until timestamptz;
-- Notices left `sending` by the earlier rule (never sent again) become stuck ones, visible at once.
update commission_notices set claimed_until = created_at where status = 'sending';
alter table commission_notices
  add constraint commission_notices_sending_lease check ((status = 'sending') = (claimed_until is not null));

-- People who share an address (issue 22, decision 0030): SMS codes per client address are limited
-- by failures, not sends, and past a few sends an address must pass a picture check (图形验证码).
-- 1. The picture checks: one row per challenge, the answer kept only as a hash; single use
--    (used_at), valid until expires_at.
create table sms_captchas (
  id uuid primary key,
  client_ip text not null check (char_length(client_ip) <= 100),
  answer_hash text not null check (char_length(answer_hash) = 64),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index sms_captchas_ip_idx on sms_captchas (client_ip, created_at);
-- 2. Failures per client address: a wrong SMS code, a wrong picture check.
create table sms_address_failures (
  id bigint generated always as identity primary key,
  client_ip text not null check (char_length(client_ip) <= 100),
  kind text not null check (kind in ('wrong_code', 'wrong_captcha')),
  created_at timestamptz not null
);
create index sms_address_failures_ip_idx on sms_address_failures (client_ip, created_at);
