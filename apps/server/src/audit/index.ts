// The audit log's one writer and reader (table audit_log, append-only). Every audited caller goes
// through here: the console's staffRouting (modules/console/staff-route.ts), the shared-token
// operator API (modules/orders/operator) and the command line (cli/operator.ts). See README.md.
export {
  type AuditFilter,
  type AuditInput,
  type AuditOutcome,
  appendAudit,
  cliActor,
  listAudit,
} from './audit.repo.ts';
