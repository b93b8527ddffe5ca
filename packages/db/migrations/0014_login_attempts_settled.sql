-- A login try is recorded before its password is checked (so racing guesses at one phone count) and
-- settled when the check is done. `settled_at` is null while the check runs: per client address only
-- settled failures count (and tries left unsettled for a minute, e.g. by a crash), so many people
-- logging in correctly at once from one address (a campus NAT) are not throttled.
alter table login_attempts add column settled_at timestamptz;
update login_attempts set settled_at = created_at;
