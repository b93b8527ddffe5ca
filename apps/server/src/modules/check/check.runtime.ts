import type { Database, Kysely } from '@kyfw/db';
import type { Config } from '../../config.ts';
import type { Logger } from '../../lib/logger.ts';
import { createFileStorage, type FileStorage } from '../../lib/storage/index.ts';
import type { CheckConfig } from './check.config.ts';
import type { IndexLocation } from './check-worker.ts';
import { type CheckCpuPool, createCheckCpuPool } from './cpu-pool.ts';
import { type Library, type LibraryLocation, openLibrary } from './library/library.ts';
import { loadSigningSecret } from './signing.ts';

/**
 * Everything the check services and the check job need besides their arguments. The module builds
 * one per app and registers it under the app's database handle, so the job handler (which only
 * gets a `db`) finds the library, the worker threads and the storage of the process it runs in. A
 * worker process without the app (`npm run worker`) builds its own from the environment.
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
    now: options.now ?? (() => new Date()),
    logger: options.logger,
    async close() {
      await pool.close();
      await library.close();
    },
  };
}

const runtimes = new WeakMap<Kysely<Database>, CheckRuntime>();
const building = new WeakMap<Kysely<Database>, Promise<CheckRuntime>>();

export function registerCheckRuntime(runtime: CheckRuntime): void {
  runtimes.set(runtime.db, runtime);
}

export function unregisterCheckRuntime(runtime: CheckRuntime): void {
  if (runtimes.get(runtime.db) === runtime) runtimes.delete(runtime.db);
}

export function findCheckRuntime(db: Kysely<Database>): CheckRuntime | undefined {
  return runtimes.get(db);
}

/**
 * The runtime for a job handler: the app's when the worker runs in the API process (embedded
 * mode), else one built once per database from the environment (`npm run worker`).
 */
export async function checkRuntimeForJob(db: Kysely<Database>, logger: Logger): Promise<CheckRuntime> {
  const found = runtimes.get(db);
  if (found) return found;
  let pending = building.get(db);
  if (!pending) {
    pending = (async () => {
      const { loadConfig } = await import('../../config.ts');
      // The check job calls the orders API (order number, processing -> done); in a worker process
      // without the app the orders module's runtime is built the same way as ours.
      // TODO(orders): an orders.api-level `ensureOrdersApi(db, logger)` would avoid this import.
      const { runtimeForJob } = await import('../orders/orders.runtime.ts');
      await runtimeForJob(db, logger as Logger);
      const runtime = await createCheckRuntime({ db, config: loadConfig(), logger });
      runtimes.set(db, runtime);
      return runtime;
    })();
    building.set(db, pending);
    pending.catch(() => building.delete(db));
  }
  return pending;
}
