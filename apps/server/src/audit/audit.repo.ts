import { userInfo } from 'node:os';
import type { Database, Kysely } from '@kyfw/db';
import { sql } from 'kysely';

/**
 * The audit log (table audit_log): append and read, nothing else. There is deliberately no update
 * or delete here, and the database refuses both (trigger in migration 0025).
 */

/** ok; refused: a permission refusal; invalid: the input was refused; failed: tried and failed. */
export type AuditOutcome = 'ok' | 'refused' | 'invalid' | 'failed';

export interface AuditInput {
  staffId: string | null;
  username: string | null;
  role: string | null;
  action: string;
  target?: string | null;
  outcome: AuditOutcome;
  before?: unknown;
  after?: unknown;
  detail?: unknown;
  ip: string | null;
  userAgent: string | null;
  at: Date;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export async function appendAudit(db: Kysely<Database>, entry: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      staff_id: entry.staffId,
      username: entry.username?.slice(0, 64) ?? null,
      role: entry.role,
      action: entry.action.slice(0, 60),
      target: entry.target?.slice(0, 100) ?? null,
      outcome: entry.outcome,
      before: json(entry.before),
      after: json(entry.after),
      detail: json(entry.detail),
      ip: entry.ip,
      user_agent: entry.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
}

/** Who a command-line action is: `cli:<OS user>`, role `cli` (the shell has no staff session). */
export function cliActor(): { username: string; role: 'cli' } {
  let osUser = process.env.SUDO_USER || process.env.USER || '';
  try {
    osUser ||= userInfo().username;
  } catch {
    // no passwd entry (a container's numeric user): the name stays unknown
  }
  return { username: `cli:${osUser || 'unknown'}`.slice(0, 64), role: 'cli' };
}

export interface AuditFilter {
  username?: string;
  action?: string;
  outcome?: AuditOutcome;
  /** Only rows up to this id: a reader's pages stay put while others act (the first page's top id). */
  beforeId?: string;
  page: number;
  pageSize: number;
}

/** Rows written before migration 0069 recorded an input mistake as `refused` with this reason. */
const OLD_INVALID = sql<boolean>`(outcome = 'refused' and detail->>'reason' = 'invalid input')`;

export async function listAudit(db: Kysely<Database>, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.username) query = query.where('username', '=', filter.username);
  if (filter.action) query = query.where('action', 'like', `${filter.action.replace(/[%_\\]/g, '\\$&')}%`);
  if (filter.outcome === 'invalid')
    query = query.where((eb) => eb.or([eb('outcome', '=', 'invalid'), eb(OLD_INVALID, '=', true)]));
  else if (filter.outcome === 'refused')
    query = query.where('outcome', '=', 'refused').where(sql<boolean>`not ${OLD_INVALID}`);
  else if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
  if (filter.beforeId) query = query.where('id', '<=', filter.beforeId);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      ...r,
      outcome: (r.outcome === 'refused' &&
      (r.detail as { reason?: unknown } | null)?.reason === 'invalid input'
        ? 'invalid'
        : r.outcome) as AuditOutcome,
    })),
    total: Number(count.n),
  };
}
