import path from 'node:path';
import { z } from 'zod';
import { envVar as env, integer } from '../../lib/env.ts';

/**
 * Environment of the paper-check module, merged into the server's env schema (config.ts). All
 * optional: the embedded default keeps the library under DATA_DIR/index and generates the report
 * signing secret under DATA_DIR on first start.
 */

export const checkEnvSchema = z.object({
  CHECK_UPLOAD_MAX_MB: env(integer(1, 100).default(30)),
  CHECK_FREE_MAX_CHARS: env(integer(1000, 1_000_000).default(15_000)),
  CHECK_INDEX_DIR: env(z.string().optional()),
  CHECK_INDEX_MEMORY_MB: env(integer(0, 65_536).default(1024)),
  CHECK_PARSE_TIMEOUT_SECONDS: env(integer(5, 600).default(60)),
  // Uploads parsed at once (one worker thread each) and uploads waiting for a worker; past the queue
  // an upload is refused at once (当前解析的文件较多).
  EXTRACT_WORKERS: env(integer(1, 64).default(2)),
  EXTRACT_QUEUE: env(integer(0, 10_000).default(32)),
  // Live re-checks of revised paragraphs in the report (issue 24) per check and per account and
  // China-time day; 0 turns a limit off.
  RECHECK_PER_ORDER_PER_DAY: env(integer(0, 1_000_000).default(300)),
  RECHECK_PER_ACCOUNT_PER_DAY: env(integer(0, 1_000_000).default(1000)),
  REPORT_SIGNING_SECRET: env(
    z.string().min(32, { error: 'must be at least 32 characters (use a long random value)' }).optional(),
  ),
});

type CheckEnv = z.output<typeof checkEnvSchema> & { DATA_DIR: string };

export function checkConfigOf(e: CheckEnv) {
  return {
    /** Largest accepted upload (bytes); also the extraction's maxBytes. */
    uploadMaxBytes: e.CHECK_UPLOAD_MAX_MB * 1024 * 1024,
    /** A free check (free_check entitlement) covers papers up to this many characters. */
    freeMaxChars: e.CHECK_FREE_MAX_CHARS,
    /** The local similarity index (embedded mode); default DATA_DIR/index. Absolute. */
    indexDir: path.resolve(e.CHECK_INDEX_DIR ?? path.join(e.DATA_DIR, 'index')),
    /**
     * Memory for the local index's postings in each check worker thread (bytes): within it a lookup
     * costs no disk read; 0 reads every lookup from disk.
     */
    indexMemoryBytes: e.CHECK_INDEX_MEMORY_MB * 1024 * 1024,
    /**
     * Parsing an upload, waiting for a worker included, is stopped after this long; the upload's
     * connection is kept open at least that long (lib/upload.ts extractionSignal).
     */
    parseTimeoutMs: e.CHECK_PARSE_TIMEOUT_SECONDS * 1000,
    /** The extraction pool (simcheck configureExtractionPool): parsed at once, and waiting. */
    extractWorkers: e.EXTRACT_WORKERS,
    extractQueue: e.EXTRACT_QUEUE,
    /**
     * HMAC key of report verification. Unset: generated once into DATA_DIR/secrets/report-signing.key
     * (embedded mode); required when several machines serve reports (DATABASE_URL in production).
     */
    signingSecret: e.REPORT_SIGNING_SECRET,
    /** Live re-checks (revise in the report) per check / per account and China-time day; 0: no limit. */
    recheckPerOrderPerDay: e.RECHECK_PER_ORDER_PER_DAY,
    recheckPerAccountPerDay: e.RECHECK_PER_ACCOUNT_PER_DAY,
  };
}

export type CheckConfig = ReturnType<typeof checkConfigOf>;
