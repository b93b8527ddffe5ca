import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Database, Kysely } from '@kyfw/db';
import pino from 'pino';
import type { Logger } from '../lib/logger.ts';
import type { Services } from '../modules/index.ts';
import { defaultBackoffMs, type Job, type JobDefinition, NonRetryableJobError } from './job-definition.ts';
import { claimJobs, completeJob, recordFailure, releaseJob, renewLease } from './queue.ts';

export interface WorkerOptions {
  db: Kysely<Database>;
  /** The kinds of job this worker runs; it claims no other names. */
  // biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
  definitions: readonly JobDefinition<any, any>[];
  /** Jobs run at the same time; default 1. */
  concurrency?: number;
  /** Sleep between polls when there is nothing to do; default 1000 ms. */
  pollIntervalMs?: number;
  /** Lease per claim, renewed every third of it while the handler runs; default 60 s. */
  leaseMs?: number;
  /** How long `stop()` lets running jobs finish before aborting them; default 25 s. */
  shutdownGraceMs?: number;
  logger?: Logger;
  /**
   * What the handlers get as `ctx.services` (createServices). Required for the modules' jobs; only
   * the queue's own tests run definitions that need none.
   */
  services?: Services;
  /** Default: host-pid-random, unique per worker instance. */
  workerId?: string;
}

export interface Worker {
  readonly id: string;
  /** Starts the polling loop (idempotent). */
  start(): void;
  /** One round: claims as many due jobs as there are free slots and runs them to the end. Returns their ids. */
  tick(): Promise<string[]>;
  /**
   * Stops claiming and waits for running jobs; after the grace period their signals abort and
   * jobs that then give up go back to the queue without using an attempt.
   */
  stop(): Promise<void>;
}

const SHUTDOWN = Symbol('worker shutdown');
/** After aborting at shutdown, how long handlers get to notice their signal. */
const HANDLER_ABORT_WAIT_MS = 5_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Creates a worker over the `jobs` table without starting it (tests call `tick`). */
export function createWorker(options: WorkerOptions): Worker {
  const db = options.db;
  const concurrency = options.concurrency ?? 1;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? 60_000;
  const shutdownGraceMs = options.shutdownGraceMs ?? 25_000;
  const workerId = options.workerId ?? `${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const logger = (options.logger ?? pino({ level: 'silent' })).child({ workerId });
  const definitions = new Map(options.definitions.map((d) => [d.name, d]));
  const names = [...definitions.keys()];

  const running = new Map<string, { promise: Promise<void>; controller: AbortController }>();
  let loop: Promise<void> | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  async function claimAndStart(): Promise<string[]> {
    const free = concurrency - running.size;
    if (free < 1 || stopping) return [];
    const jobs = await claimJobs(db, { names, workerId, limit: free, leaseMs });
    for (const job of jobs) {
      const controller = new AbortController();
      const promise = runJob(job, controller).finally(() => {
        running.delete(job.id);
        wake?.();
      });
      running.set(job.id, { promise, controller });
    }
    return jobs.map((j) => j.id);
  }

  async function runJob(job: Job, controller: AbortController): Promise<void> {
    // claimJobs only returns names from `definitions`.
    const definition = definitions.get(job.name)!;
    const owned = { id: job.id, workerId };
    const log = logger.child({ jobId: job.id, job: job.name, attempt: job.attempts });
    const started = Date.now();

    // Renew the lease while the handler runs; losing it (cancelled, or taken over) aborts the handler.
    const heartbeat = setInterval(async () => {
      try {
        if (!(await renewLease(db, { ...owned, leaseMs })))
          controller.abort(new Error('job cancelled or lease lost'));
      } catch (error) {
        log.warn({ err: error }, 'lease renewal failed');
      }
    }, leaseMs / 3);

    try {
      const payload = definition.payloadSchema ? parsePayload(definition, job.payload) : job.payload;
      log.info('job started');
      const result = await definition.handler({
        job,
        payload,
        db,
        logger: log,
        get services(): Services {
          if (!options.services) throw new Error('this worker was created without services (createServices)');
          return options.services;
        },
        signal: controller.signal,
        async reportProgress(percent, text) {
          const progress = Math.max(0, Math.min(100, Math.round(percent)));
          const stillOurs = await renewLease(db, { ...owned, leaseMs, progress, progressText: text });
          if (!stillOurs) controller.abort(new Error('job cancelled or lease lost'));
        },
      });
      const recorded = await completeJob(db, owned, result);
      log.info(
        { ms: Date.now() - started, recorded },
        recorded ? 'job succeeded' : 'job finished after it was cancelled or taken over',
      );
    } catch (error) {
      await handleFailure(job, definition, controller, error, log);
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function handleFailure(
    job: Job,
    definition: JobDefinition<unknown, unknown>,
    controller: AbortController,
    error: unknown,
    log: Logger,
  ): Promise<void> {
    const owned = { id: job.id, workerId };
    try {
      if (controller.signal.reason === SHUTDOWN) {
        await releaseJob(db, owned);
        log.warn('job interrupted by shutdown, returned to the queue');
        return;
      }
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const canRetry = !(error instanceof NonRetryableJobError) && job.attempts < job.maxAttempts;
      const retryInMs = canRetry ? (definition.backoffMs ?? defaultBackoffMs)(job.attempts) : null;
      const recorded = await recordFailure(db, owned, message, retryInMs);
      if (!recorded) log.info({ err: error }, 'job ended after it was cancelled or taken over');
      else if (retryInMs === null) log.error({ err: error }, 'job failed for good');
      else log.warn({ err: error, retryInMs }, 'job failed, will retry');
    } catch (dbError) {
      // The row keeps its lease; when it expires another claim retries the job.
      log.error({ err: dbError, jobError: error }, 'could not record job failure');
    }
  }

  async function runLoop(): Promise<void> {
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = (await claimAndStart()).length;
      } catch (error) {
        logger.error({ err: error }, 'claiming jobs failed');
      }
      if (stopping) break;
      // Poll again at once while there was work and free slots; otherwise wait for the interval
      // or for a running job to finish.
      if (claimed === 0 || running.size >= concurrency) await sleep(pollIntervalMs);
    }
  }

  return {
    id: workerId,
    start() {
      if (loop || stopping) return;
      logger.info({ workerId, pid: process.pid, concurrency, leaseMs, jobs: names }, 'job worker started');
      loop = runLoop();
    },
    async tick() {
      const ids = await claimAndStart();
      await Promise.all(ids.map((id) => running.get(id)?.promise));
      return ids;
    },
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      const inFlight = [...running.values()];
      if (inFlight.length > 0) {
        logger.info({ running: inFlight.length }, 'waiting for running jobs');
        const grace = setTimeout(() => {
          for (const { controller } of running.values()) controller.abort(SHUTDOWN);
        }, shutdownGraceMs);
        const settled = Promise.allSettled(inFlight.map((r) => r.promise));
        // A handler that ignores its signal must not block the shutdown forever: give it a little
        // longer, then hand its job back to the queue (its late result will be dropped).
        const gaveUp = await Promise.race([
          settled.then(() => false),
          delay(shutdownGraceMs + HANDLER_ABORT_WAIT_MS).then(() => true),
        ]);
        clearTimeout(grace);
        if (gaveUp) {
          for (const jobId of running.keys()) {
            await releaseJob(db, { id: jobId, workerId }).catch(() => undefined);
            logger.warn({ jobId }, 'job ignored its abort signal; returned to the queue');
          }
        }
      }
      logger.info('job worker stopped');
    },
  };
}

/** Creates and starts a worker. */
export function startWorker(options: WorkerOptions): Worker {
  const worker = createWorker(options);
  worker.start();
  return worker;
}

function parsePayload(definition: JobDefinition<unknown, unknown>, payload: unknown): unknown {
  const result = definition.payloadSchema?.safeParse(payload);
  if (result && !result.success) {
    throw new NonRetryableJobError(
      `invalid payload: ${result.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  return result ? result.data : payload;
}
