-- Commission e-mail notices are sent at least once (issue 22): a worker claims a notice
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
