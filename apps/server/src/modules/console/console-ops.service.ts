import { ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { sql } from 'kysely';
import { AppError } from '../../lib/app-error.ts';
import { TEXTS } from './console.texts.ts';

/**
 * The console's read-only views of users, the job queue's failures and the LLM's usage, and the
 * one job action (retry). Users are shown without anything secret: no password hash, no openid.
 */

const USER_STATUS_TEXTS: Record<string, string> = { active: '正常', closed: '已停用', deleted: '已注销' };

/** Users whose phone number starts with `phone` (at most 20), with their orders and amount paid. */
export async function searchUsers(db: Kysely<Database>, phone: string) {
  const rows = await db
    .selectFrom('users')
    .select([
      'users.id',
      'users.phone_number',
      'users.real_name',
      'users.unit_name',
      'users.status',
      'users.created_at',
      'users.last_login_at',
      'users.wx_open_id',
      sql<string>`(select count(*) from orders o where o.user_id = users.id)`.as('orders'),
      sql<string>`(select coalesce(sum(o.amount_fen - o.refunded_fen), 0) from orders o
        where o.user_id = users.id and o.paid_at is not null)`.as('paid_fen'),
    ])
    .where('users.phone_number', 'like', `${phone}%`)
    .orderBy('users.created_at', 'desc')
    .limit(20)
    .execute();
  return rows.map((u) => ({
    userId: u.id,
    phone: u.phone_number,
    realName: u.real_name,
    unitName: u.unit_name,
    status: u.status,
    statusText: USER_STATUS_TEXTS[u.status] ?? u.status,
    wechatBound: u.wx_open_id !== null,
    createdAt: u.created_at.toISOString(),
    lastLoginAt: u.last_login_at.toISOString(),
    orders: Number(u.orders),
    paidFen: Number(u.paid_fen),
  }));
}

/** Jobs that used up their attempts, newest first. */
export async function failedJobs(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'name', 'attempts', 'max_attempts', 'last_error', 'created_at', 'updated_at'])
    .where('status', '=', 'failed')
    .orderBy('updated_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((j) => ({
    jobId: String(j.id),
    name: j.name,
    attempts: j.attempts,
    maxAttempts: j.max_attempts,
    lastError: j.last_error,
    createdAt: j.created_at.toISOString(),
    updatedAt: j.updated_at.toISOString(),
  }));
}

/** A failed job queued again with its attempts restored; the worker picks it up at once. */
export async function retryJob(db: Kysely<Database>, jobId: string, now: Date) {
  const row = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      attempts: 0,
      run_at: now,
      locked_by: null,
      locked_until: null,
      finished_at: null,
      updated_at: now,
    })
    .where('id', '=', jobId)
    .where('status', '=', 'failed')
    .returning(['id', 'name', 'last_error'])
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.CONFLICT, TEXTS.jobNotFailed);
  return { jobId: String(row.id), name: row.name, lastError: row.last_error };
}

const yuanOfMicro = (micro: number) => (micro / 1_000_000).toFixed(4);

/** LLM calls, tokens and cost per day (China time) and per task for `days` days, and the top orders. */
export async function llmUsage(db: Kysely<Database>, days: number, now: Date) {
  const since = new Date(now.getTime() - days * 86_400_000);
  const sums = {
    calls: sql<string>`count(*)`,
    prompt: sql<string>`coalesce(sum(prompt_tokens), 0)`,
    completion: sql<string>`coalesce(sum(completion_tokens), 0)`,
    cost: sql<string>`coalesce(sum(cost_micro_yuan), 0)`,
  };
  const day = sql<string>`to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  const select = (q: ReturnType<typeof base>) =>
    q.select([
      sums.calls.as('calls'),
      sums.prompt.as('prompt'),
      sums.completion.as('completion'),
      sums.cost.as('cost'),
    ]);
  const base = () => db.selectFrom('llm_usage').where('created_at', '>=', since);
  const [byDay, byTask, byOrder] = await Promise.all([
    select(base()).select(day.as('key')).groupBy(day).orderBy(day).execute(),
    select(base()).select('task as key').groupBy('task').orderBy('task').execute(),
    select(base().where('order_no', 'is not', null))
      .select('order_no as key')
      .groupBy('order_no')
      .orderBy(sums.cost, 'desc')
      .limit(50)
      .execute(),
  ]);
  const row = (r: {
    key: string | null;
    calls: string;
    prompt: string;
    completion: string;
    cost: string;
  }) => ({
    key: r.key ?? '',
    calls: Number(r.calls),
    promptTokens: Number(r.prompt),
    completionTokens: Number(r.completion),
    costMicroYuan: Number(r.cost),
    cost: yuanOfMicro(Number(r.cost)),
  });
  return { byDay: byDay.map(row), byTask: byTask.map(row), byOrder: byOrder.map(row) };
}
