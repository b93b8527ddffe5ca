import { existsSync } from 'node:fs';
import { createDb, type DbHandle, migrate, seed } from '@kyfw/db';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { lockDataDir } from './lib/data-dir-lock.ts';
import type { Logger } from './lib/logger.ts';

/**
 * loadConfig for entry points: reads `.env` from the working directory when there is one (variables
 * already set in the environment win), then prints every bad variable and exits 1 instead of throwing.
 */
export function loadConfigOrExit(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Opens the database of the configured mode — PostgreSQL with DATABASE_URL, else PGlite under
 * DATA_DIR — and brings it up to date: migrations (safe when several processes start at once) and
 * the first-start seed. The embedded database's folder is locked first (DATA_DIR/kyfw.pid): a second
 * process on the same DATA_DIR is refused before it opens anything (DataDirLockedError).
 */
export async function openDatabase(config: Config, logger: Logger): Promise<DbHandle> {
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  const handle = config.databaseUrl
    ? await createDb({
        databaseUrl: config.databaseUrl,
        onPoolError: (error) => logger.warn({ err: error }, 'idle database connection failed'),
      })
    : await createDb({ dataDir: config.dataDir }).catch((error: unknown) => {
        unlock();
        throw error;
      });
  logger.info(
    handle.kind === 'postgres' ? { database: 'postgres' } : { database: 'pglite', dataDir: config.dataDir },
    'database opened',
  );
  try {
    await migrate(handle.db, {
      onApplied: ({ version, name }) => logger.info({ version, name }, 'migration applied'),
    });
    await seed(handle.db);
  } catch (error) {
    await handle.close();
    unlock();
    throw error;
  }
  return {
    ...handle,
    async close() {
      await handle.close();
      unlock();
    },
  };
}

/**
 * Runs `shutdown` once on SIGTERM or SIGINT, then exits 0; exits 1 if it throws or takes longer
 * than `timeoutMs` (a stuck request or job must not keep a stopping process alive forever).
 */
export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>, timeoutMs = 40_000): void {
  let started = false;
  const handler = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs).unref();
    shutdown().then(
      () => {
        logger.info('shutdown complete');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
