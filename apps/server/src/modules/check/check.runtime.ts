import type { Database, Kysely } from '@kyfw/db';
import type { Config } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import { createFileStorage, type FileStorage } from '../../lib/storage/index.ts';
import type { OrdersApi } from '../orders/index.ts';
import type { CheckConfig } from './check.config.ts';
import type { IndexLocation } from './check-worker.ts';
import { type CheckCpuPool, createCheckCpuPool } from './cpu-pool.ts';
import { type Library, type LibraryLocation, openLibrary } from './library/library.ts';
import { loadSigningSecret } from './signing.ts';

/**
 * Everything the check services and the check job need besides their arguments, built once per
 * process by the check module's createService (services.ts): the routes get it as a plugin option,
 * the job handlers as `ctx.services.check`.
 */
export interface CheckRuntime {
  db: Kysely<Database>;
  config: CheckConfig;
  /** PUBLIC_BASE_URL without a trailing slash (verification links). */
  publicBaseUrl: string;
  storage: FileStorage;
  library: Library;
  /** Where the worker threads read the index (same library as `library`). */
  indexLocation: IndexLocation;
  pool: CheckCpuPool;
  signingSecret: string;
  /** The orders API (orders.api.ts): goods, the check's order, payment, refunds. */
  orders: OrdersApi;
  now: () => Date;
  logger: CheckLogger;
  close(): Promise<void>;
}

/** What the services log with: the app's logger or a job's (pino either way). */
export type CheckLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface CheckRuntimeOptions {
  db: Kysely<Database>;
  config: Pick<Config, 'check' | 'dataDir' | 'databaseUrl' | 'publicBaseUrl' | 'nodeEnv'> &
    Partial<Pick<Config, 'storage'>>;
  logger: CheckLogger;
  orders: OrdersApi;
  now?: () => Date;
  /** Worker threads for comparing and rendering; default 1. */
  threads?: number;
}

export function libraryLocationOf(
  config: Pick<Config, 'check' | 'databaseUrl'>,
  db: Kysely<Database>,
): LibraryLocation {
  return config.databaseUrl
    ? { kind: 'postgres', databaseUrl: config.databaseUrl, db }
    : { kind: 'local', dir: config.check.indexDir };
}

export async function createCheckRuntime(options: CheckRuntimeOptions): Promise<CheckRuntime> {
  const { config, db } = options;
  if (config.nodeEnv === 'production' && config.databaseUrl && !config.check.signingSecret) {
    // Several machines must sign with one key; a per-machine generated key would make reports
    // verified on one machine fail on another.
    throw new Error(
      'REPORT_SIGNING_SECRET is required with DATABASE_URL in production (all machines share it)',
    );
  }
  const location = libraryLocationOf(config, db);
  const library = await openLibrary(location);
  const pool = createCheckCpuPool({ size: options.threads ?? 1 });
  return {
    db,
    config: config.check,
    publicBaseUrl: config.publicBaseUrl.replace(/\/+$/, ''),
    storage: createFileStorage(config),
    library,
    indexLocation:
      location.kind === 'local'
        ? { kind: 'local', dir: location.dir, memoryBytes: config.check.indexMemoryBytes }
        : { kind: 'postgres', databaseUrl: location.databaseUrl },
    pool,
    signingSecret: loadSigningSecret({ configured: config.check.signingSecret, dataDir: config.dataDir }),
    orders: options.orders,
    now: options.now ?? (() => new Date()),
    logger: options.logger,
    async close() {
      await pool.close();
      await library.close();
    },
  };
}
