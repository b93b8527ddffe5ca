import { type Database, type JobRow, type Kysely, sql } from '@kyfw/db';
import { isUuid } from '../lib/uuid.ts';
import { DEFAULT_MAX_ATTEMPTS, type Job, type JobDefinition } from './job-definition.ts';

/**
 * The job table's repository: every SQL statement of the queue lives here. All time comparisons use
 * the database clock (now()), so workers on machines with drifting clocks agree on what is due.
 *
 * Functions take a `Kysely<Database>`, which a Kysely transaction also is: enqueue inside the same
 * transaction that writes an order, and the job exists exactly when the order does.
 */

export interface EnqueueOptions {
  /** Not before this time; default now. */
  runAt?: Date;
  /** Overrides the definition's maxAttempts. */
  maxAttempts?: number;
  /** A second enqueue with the same key returns the existing job instead of adding one. */
  dedupeKey?: string;
}

const MAX_ERROR_LENGTH = 2000;

export function toJob<P = unknown>(row: JobRow): Job<P> {
  return {
    id: row.id,
    name: row.name,
    payload: row.payload as P,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until,
    lastError: row.last_error,
    progress: row.progress,
    progressText: row.progress_text,
    result: row.result,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/**
 * Adds a job. Pass the definition (typed payload, its maxAttempts) or just its name.
 * Returns the job id and whether this call created it (false when `dedupeKey` matched a job).
 */
export async function enqueue<P>(
  db: Kysely<Database>,
  job: JobDefinition<P, unknown> | string,
  payload: P,
  options: EnqueueOptions = {},
): Promise<{ id: string; created: boolean }> {
  const name = typeof job === 'string' ? job : job.name;
  const maxAttempts =
    options.maxAttempts ?? (typeof job === 'string' ? undefined : job.maxAttempts) ?? DEFAULT_MAX_ATTEMPTS;
  const inserted = await db
    .insertInto('jobs')
    .values({
      name,
      payload: JSON.stringify(payload ?? {}),
      max_attempts: maxAttempts,
      dedupe_key: options.dedupeKey ?? null,
      ...(options.runAt ? { run_at: options.runAt } : {}),
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };

  const existing = await db
    .selectFrom('jobs')
    .select('id')
    .where('dedupe_key', '=', options.dedupeKey ?? '')
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/** The job, or undefined for an unknown (or malformed) id. */
export async function getJob<P = unknown>(db: Kysely<Database>, id: string): Promise<Job<P> | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toJob<P>(row) : undefined;
}

/**
 * Cancels a queued or running job; true if it was. A running handler sees its signal abort at the
 * worker's next lease renewal, and its late result is discarded.
 */
export async function cancelJob(db: Kysely<Database>, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'cancelled',
      locked_by: null,
      locked_until: null,
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Cancels the queued or running job enqueued with `dedupeKey` (as cancelJob); true if there was
 * one. A service whose work ended (a refund) takes its job out of the queue with it.
 */
export async function cancelJobByKey(db: Kysely<Database>, dedupeKey: string): Promise<boolean> {
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('dedupe_key', '=', dedupeKey)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return job ? cancelJob(db, job.id) : false;
}

/**
 * Claims up to `limit` due jobs for `workerId` and sets their lease.
 *
 * Due means queued with run_at reached, or running with an expired lease (its worker crashed or
 * hung; the run counts as an attempt). `FOR UPDATE SKIP LOCKED` makes concurrent claimers take
 * disjoint rows without waiting on each other; select and update are one statement, hence one
 * transaction. Expired jobs with no attempts left are marked failed first.
 */
export async function claimJobs(
  db: Kysely<Database>,
  options: { names: readonly string[]; workerId: string; limit: number; leaseMs: number },
): Promise<Job[]> {
  if (options.names.length === 0 || options.limit < 1) return [];
  const names = sql.join(options.names.map((n) => sql`${n}`));
  const leaseSeconds = options.leaseMs / 1000;

  await sql`
    update jobs
    set status = 'failed', locked_by = null, locked_until = null, finished_at = now(), updated_at = now(),
        last_error = coalesce(last_error || E'\n', '') || '任务执行超时或进程中断，已达最大重试次数'
    where status = 'running' and locked_until < now() and attempts >= max_attempts and name in (${names})
  `.execute(db);

  const claimed = await sql<JobRow>`
    with due as (
      select id from jobs
      where name in (${names})
        and ((status = 'queued' and run_at <= now())
          or (status = 'running' and locked_until < now() and attempts < max_attempts))
      order by run_at, created_at
      limit ${options.limit}
      for update skip locked
    )
    update jobs
    set status = 'running',
        attempts = jobs.attempts + 1,
        locked_by = ${options.workerId},
        locked_until = now() + make_interval(secs => ${leaseSeconds}),
        updated_at = now()
    from due
    where jobs.id = due.id
    returning jobs.*
  `.execute(db);
  return claimed.rows.map((row) => toJob(row));
}

/** Extends the lease (and records progress when given); false when the job is no longer ours to run. */
export async function renewLease(
  db: Kysely<Database>,
  options: { id: string; workerId: string; leaseMs: number; progress?: number; progressText?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      locked_until: sql`now() + make_interval(secs => ${options.leaseMs / 1000})`,
      updated_at: sql`now()`,
      ...(options.progress === undefined ? {} : { progress: options.progress }),
      ...(options.progressText === undefined ? {} : { progress_text: options.progressText }),
    })
    .where('id', '=', options.id)
    .where('locked_by', '=', options.workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

type Owned = { id: string; workerId: string };

function ownedUpdate(db: Kysely<Database>, { id, workerId }: Owned) {
  return db
    .updateTable('jobs')
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running');
}

/** Records success; false if the job was cancelled or taken over meanwhile (the result is dropped). */
export async function completeJob(db: Kysely<Database>, owned: Owned, result: unknown): Promise<boolean> {
  const r = await ownedUpdate(db, owned)
    .set({
      status: 'succeeded',
      result: result === undefined ? null : JSON.stringify(result),
      progress: 100,
      locked_by: null,
      locked_until: null,
      finished_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records a failed run: back to queued after `retryInMs`, or failed for good when it is null. */
export async function recordFailure(
  db: Kysely<Database>,
  owned: Owned,
  error: string,
  retryInMs: number | null,
): Promise<boolean> {
  const lastError = error.slice(0, MAX_ERROR_LENGTH);
  const update =
    retryInMs === null
      ? ownedUpdate(db, owned).set({ status: 'failed', finished_at: sql`now()` })
      : ownedUpdate(db, owned).set({
          status: 'queued',
          run_at: sql`now() + make_interval(secs => ${retryInMs / 1000})`,
        });
  const r = await update
    .set({ last_error: lastError, locked_by: null, locked_until: null, updated_at: sql`now()` })
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Hands an interrupted run back to the queue (worker shutdown): not the job's fault, so no attempt is used. */
export async function releaseJob(db: Kysely<Database>, owned: Owned): Promise<boolean> {
  const r = await ownedUpdate(db, owned)
    .set({
      status: 'queued',
      attempts: sql`greatest(attempts - 1, 0)`,
      run_at: sql`now()`,
      locked_by: null,
      locked_until: null,
      updated_at: sql`now()`,
    })
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Deletes finished jobs older than `olderThanDays`; returns how many. */
export async function purgeFinishedJobs(db: Kysely<Database>, olderThanDays: number): Promise<number> {
  const r = await db
    .deleteFrom('jobs')
    .where('status', 'in', ['succeeded', 'failed', 'cancelled'])
    .where('finished_at', '<', sql<Date>`now() - make_interval(days => ${olderThanDays})`)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Where the queued job with this dedupe key waits: the number of queued jobs a worker takes before
 * it (claimJobs' order: run_at, then created_at), and whether it ran before (a retry waiting for its
 * turn). Null when no such job is waiting (running, finished, or none).
 */
export async function queuePlace(
  db: Kysely<Database>,
  dedupeKey: string,
): Promise<{ ahead: number; retry: boolean } | null> {
  const result = await sql<{ ahead: string; attempts: number }>`
    select j.attempts, (
      select count(*) from jobs o
      where o.status = 'queued' and (o.run_at, o.created_at) < (j.run_at, j.created_at)
    ) as ahead
    from jobs j
    where j.dedupe_key = ${dedupeKey} and j.status = 'queued'
  `.execute(db);
  const row = result.rows[0];
  return row ? { ahead: Number(row.ahead), retry: Number(row.attempts) > 0 } : null;
}

/** 排队中 and its place, the words a page shows for a job waiting for a worker. */
export function queuedText(ahead: number): string {
  return ahead > 0 ? `排队中，前面还有 ${ahead} 个任务` : '排队中，即将开始';
}

/** What a paid service's view has that says where its job is. */
export interface QueuedView {
  status: string;
  statusText: string;
  progress: number;
  orderId: string | null;
}

/**
 * A job's view while its job waits for a worker: says 排队中 and its place instead of a percentage
 * (`queueAhead` set; progress 0 before its first run, what it had reached when a retry waits);
 * any other view as it is, `queueAhead` null. `dedupeKey` is the job's (null: no job runs for it now).
 */
export async function withQueuePlace<V extends { statusText: string; progress: number }>(
  db: Kysely<Database>,
  view: V,
  dedupeKey: string | null,
): Promise<V & { queueAhead: number | null }> {
  const place = dedupeKey ? await queuePlace(db, dedupeKey) : null;
  if (place === null) return { ...view, queueAhead: null };
  return {
    ...view,
    statusText: queuedText(place.ahead),
    progress: place.retry ? view.progress : 0,
    queueAhead: place.ahead,
  };
}
