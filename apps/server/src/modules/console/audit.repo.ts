import type { Database, Kysely } from '@kyfw/db';

/**
 * The audit log (table audit_log): append and read, nothing else. There is deliberately no update
 * or delete here, and the database refuses both (trigger in migration 0025).
 */

export interface AuditInput {
  staffId: string | null;
  username: string | null;
  role: string | null;
  action: string;
  target?: string | null;
  outcome: 'ok' | 'refused' | 'failed';
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
      username: entry.username,
      role: entry.role,
      action: entry.action,
      target: entry.target ?? null,
      outcome: entry.outcome,
      before: json(entry.before),
      after: json(entry.after),
      detail: json(entry.detail),
      ip: entry.ip,
      user_agent: entry.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
}

export interface AuditFilter {
  username?: string;
  action?: string;
  outcome?: 'ok' | 'refused' | 'failed';
  page: number;
  pageSize: number;
}

export async function listAudit(db: Kysely<Database>, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.username) query = query.where('username', '=', filter.username);
  if (filter.action) query = query.where('action', 'like', `${filter.action.replace(/[%_\\]/g, '\\$&')}%`);
  if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
