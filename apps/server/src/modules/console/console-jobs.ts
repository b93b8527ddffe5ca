import { ErrorCode, STUCK_QUEUED_MINUTES, type StuckJob } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import { AppError } from '../../lib/app-error.ts';

/**
 * Stuck jobs for the console (beside the failed ones): `running` whose lease ran out — its worker
 * died or hangs without renewing, and no worker has taken it back — and `queued` jobs due for more
 * than STUCK_QUEUED_MINUTES (no worker runs their kind). 重新排队 follows the queue's claim rules
 * (jobs/queue.ts): a running job is requeued only while its lease is still expired, in one UPDATE,
 * so a worker that is in fact alive and renews its lease first keeps the job; one that renews later
 * finds `locked_by` cleared, stops, and its late result is discarded (renewLease/completeJob check
 * locked_by).
 */

const MINUTE_MS = 60_000;

export const JOB_TEXTS = {
  notStuck: '该任务不存在，或已不再卡住（仍在运行且租约有效，或已完成）',
  requeued: '任务已重新排队，空闲的 worker 会立即领取',
} as const;

export async function stuckJobs(db: Kysely<Database>, now: Date): Promise<StuckJob[]> {
  const queuedBefore = new Date(now.getTime() - STUCK_QUEUED_MINUTES * MINUTE_MS);
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<', queuedBefore)]),
      ]),
    )
    .orderBy('updated_at')
    .limit(200)
    .execute();
  return rows.map((j) => {
    const since = j.status === 'running' ? (j.locked_until ?? j.updated_at) : j.run_at;
    return {
      jobId: String(j.id),
      name: j.name,
      status: j.status === 'running' ? 'running' : 'queued',
      attempts: j.attempts,
      maxAttempts: j.max_attempts,
      progress: j.progress,
      progressText: j.progress_text,
      lockedBy: j.locked_by,
      lockedUntil: j.locked_until?.toISOString() ?? null,
      runAt: j.run_at.toISOString(),
      updatedAt: j.updated_at.toISOString(),
      stuckMinutes: Math.max(0, Math.floor((now.getTime() - since.getTime()) / MINUTE_MS)),
    };
  });
}

/**
 * Queues a stuck job again, due now: a running one only while its lease is still expired (then its
 * lease and worker are cleared; its attempts stay, so max_attempts still bounds it), a queued one
 * only while it is still queued and overdue. Anything else is refused (1011) and left as it is.
 */
export async function requeueStuckJob(db: Kysely<Database>, jobId: string, now: Date) {
  const queuedBefore = new Date(now.getTime() - STUCK_QUEUED_MINUTES * MINUTE_MS);
  const before = await db
    .selectFrom('jobs')
    .select(['status', 'locked_by', 'locked_until', 'attempts', 'run_at'])
    .where('id', '=', jobId)
    .executeTakeFirst();
  const row = await db
    .updateTable('jobs')
    .set({ status: 'queued', locked_by: null, locked_until: null, run_at: now, updated_at: now })
    .where('id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        eb.and([eb('status', '=', 'queued'), eb('run_at', '<', queuedBefore)]),
      ]),
    )
    .returning(['id', 'name'])
    .executeTakeFirst();
  if (!row || !before) throw new AppError(ErrorCode.CONFLICT, JOB_TEXTS.notStuck);
  return {
    job: { jobId: String(row.id), name: row.name },
    before: {
      status: before.status,
      lockedBy: before.locked_by,
      lockedUntil: before.locked_until?.toISOString() ?? null,
      attempts: before.attempts,
    },
  };
}
