import type { Database, JobStatus, Kysely } from '@kyfw/db';
import type { z } from 'zod';
import type { Logger } from '../lib/logger.ts';
import type { Services } from '../modules/index.ts';

/** A job row as the rest of the server sees it (camelCase). */
export interface Job<P = unknown> {
  id: string;
  name: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: string | null;
  progress: number;
  progressText: string | null;
  result: unknown;
  dedupeKey: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export interface JobContext<P> {
  job: Job<P>;
  /** The payload, parsed by the definition's schema when it has one. */
  payload: P;
  db: Kysely<Database>;
  logger: Logger;
  /**
   * Every module's service, built once per process by createServices (services.ts): a handler takes
   * what it needs from here (e.g. `ctx.services.orders.runtime`), never from a global or the
   * environment. Throws when the worker was created without services (queue tests).
   */
  services: Services;
  /**
   * Aborted when the job is cancelled, its lease is lost to another worker, or the worker is
   * shutting down; long handlers should pass it on (fetch, streams) or check it between steps.
   */
  signal: AbortSignal;
  /** Records progress (0–100) and a short text on the row, and extends the lease. */
  reportProgress(percent: number, text?: string): Promise<void>;
}

/**
 * A kind of background work. Handlers must be idempotent: a job can run again after a crash or a
 * lost lease, so a second run must not, e.g., charge or send twice.
 */
export interface JobDefinition<P = unknown, R = unknown> {
  name: string;
  /** Total runs before the job is marked failed; default 5. Stored on the row at enqueue. */
  maxAttempts?: number;
  /** Validates the payload before each run; a payload that fails is failed without retries. */
  payloadSchema?: z.ZodType<P>;
  /** Delay before retry number `attempt` (1 = after the first failure); default exponential. */
  backoffMs?: (attempt: number) => number;
  handler(ctx: JobContext<P>): Promise<R>;
}

/** Identity helper that infers the payload and result types of a definition. */
export function defineJob<P, R>(definition: JobDefinition<P, R>): JobDefinition<P, R> {
  return definition;
}

/** Throw from a handler when retrying cannot help (bad input); the job fails at once. */
export class NonRetryableJobError extends Error {
  override readonly name = 'NonRetryableJobError';
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** 10 s, 20 s, 40 s, … capped at one hour. */
export function defaultBackoffMs(attempt: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 60 * 60 * 1000);
}
