import type { Database, Kysely } from '@kyfw/db';
import pino from 'pino';
import type { Logger } from '../lib/logger.ts';
import { enqueue } from './queue.ts';

/**
 * A recurring job: one run per time slot of `everyMs`, slots starting at the Unix epoch plus
 * `offsetMs` (e.g. every 24 h at 03:00 China time: everyMs 24 h, offsetMs 19 h, since 03:00 CST is
 * 19:00 UTC). A process starting mid-slot enqueues that slot's run at once (catch-up).
 */
export interface Schedule {
  /** Unique name of the schedule, part of the dedupe key. */
  name: string;
  jobName: string;
  everyMs: number;
  offsetMs?: number;
  payload?: unknown;
}

export interface Scheduler {
  /** Enqueues the current slot of every schedule (no-op for slots already enqueued). */
  tick(now?: Date): Promise<void>;
  stop(): void;
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** Start of the slot containing `now`. */
export function slotStart(schedule: Schedule, now: Date): Date {
  const offset = schedule.offsetMs ?? 0;
  return new Date(Math.floor((now.getTime() - offset) / schedule.everyMs) * schedule.everyMs + offset);
}

/**
 * Enqueues recurring jobs. Every worker process may run a scheduler: the dedupe key
 * `schedule:<name>:<slot start>` is unique in the jobs table, so however many schedulers tick,
 * each slot is enqueued once. `createScheduler` has no timer (tests call `tick`); `startScheduler`
 * ticks now and every `checkIntervalMs`.
 */
export function createScheduler(options: {
  db: Kysely<Database>;
  schedules: readonly Schedule[];
  logger?: Logger;
}): Pick<Scheduler, 'tick'> {
  const logger = options.logger ?? pino({ level: 'silent' });
  return {
    async tick(now = new Date()) {
      for (const schedule of options.schedules) {
        const start = slotStart(schedule, now);
        const { created } = await enqueue(options.db, schedule.jobName, schedule.payload ?? {}, {
          runAt: start,
          dedupeKey: `schedule:${schedule.name}:${start.toISOString()}`,
        });
        if (created)
          logger.info({ schedule: schedule.name, slot: start.toISOString() }, 'scheduled job enqueued');
      }
    },
  };
}

export function startScheduler(options: {
  db: Kysely<Database>;
  schedules: readonly Schedule[];
  /** How often to look; default 60 s. */
  checkIntervalMs?: number;
  logger?: Logger;
}): Scheduler {
  const scheduler = createScheduler(options);
  const safeTick = () =>
    scheduler.tick().catch((error) => options.logger?.error({ err: error }, 'scheduler tick failed'));
  void safeTick();
  const timer = setInterval(safeTick, options.checkIntervalMs ?? 60_000);
  timer.unref();
  return { tick: scheduler.tick, stop: () => clearInterval(timer) };
}
