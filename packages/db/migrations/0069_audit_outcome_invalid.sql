-- Issue 23: the audit log separates input mistakes from permission refusals. `invalid`: the
-- caller's input was refused (1001 and the like); `refused` stays for permission refusals (no
-- session, wrong role, scope, token, failed login). Rows written before keep `refused` with
-- detail.reason = 'invalid input' (the log is append-only) and are read as `invalid`
-- (apps/server/src/audit/audit.repo.ts).
alter table audit_log drop constraint audit_log_outcome_check;
alter table audit_log
  add constraint audit_log_outcome_check check (outcome in ('ok', 'refused', 'invalid', 'failed'));
