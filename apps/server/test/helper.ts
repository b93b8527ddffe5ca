import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Database, Kysely } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createLogger, type Logger } from '../src/lib/logger.ts';
import type { ProviderOverrides, ServerModule } from '../src/modules/types.ts';
import { createServices, type ServiceRoot } from '../src/services.ts';

/** A folder that never exists: tests run API-only unless they point WEB_DIST_DIR at a fixture. */
const NO_WEB_DIST = path.join(os.tmpdir(), 'kyfw-test-no-web-dist');

/** Config as in production, but quiet, test mode and without a web build; `env` overrides. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(os.tmpdir(), 'kyfw-test-data'),
    WEB_DIST_DIR: NO_WEB_DIST,
    // Tests drive the AI calls far faster than a person: the free-call quotas (decision 0028) are
    // tested where a test sets them (test/llm/ai-quota.test.ts).
    AI_FREE_ACCOUNT_PER_MINUTE: '0',
    AI_FREE_ACCOUNT_PER_DAY: '0',
    AI_FREE_ADDRESS_PER_MINUTE: '0',
    AI_FREE_ADDRESS_PER_DAY: '0',
    AI_FREE_ACCOUNT_TOKENS_PER_DAY: '0',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  /** What createServices built for the app (jobs: `createWorker({ …, services: t.root.services })`). */
  root: ServiceRoot;
  close(): Promise<void>;
}

/**
 * As main.ts does: createServices, then buildApp on them. `close()` closes the app, then the
 * services (the database stays the caller's).
 */
export async function startTestApp(options: {
  config: Config;
  db: Kysely<Database>;
  logger?: Logger;
  clock?: () => Date;
  modules?: readonly ServerModule[];
  providers?: ProviderOverrides | (() => ProviderOverrides);
}): Promise<{ app: FastifyInstance; root: ServiceRoot; close(): Promise<void> }> {
  const logger = options.logger ?? createLogger(options.config);
  const root = await createServices({
    config: options.config,
    db: options.db,
    logger,
    clock: options.clock,
    modules: options.modules,
    providers: typeof options.providers === 'function' ? options.providers() : options.providers,
  });
  try {
    const app = await buildApp({ config: options.config, db: options.db, services: root, logger });
    await app.ready();
    let closed = false;
    return {
      app,
      root,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await root.close();
      },
    };
  } catch (error) {
    await root.close();
    throw error;
  }
}

/**
 * A fresh app on a fresh database (in-memory PGlite; a throwaway PostgreSQL database when
 * DATABASE_URL is set). Call it in `beforeAll` and `close()` in `afterAll`.
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    modules?: readonly ServerModule[];
    logger?: Logger;
    providers?: ProviderOverrides;
  } = {},
): Promise<TestApp> {
  const handle = await createTestDb();
  const config = testConfig(options.env);
  let started: Awaited<ReturnType<typeof startTestApp>>;
  try {
    started = await startTestApp({
      config,
      db: handle.db,
      logger: options.logger,
      modules: options.modules,
      providers: options.providers,
    });
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    app: started.app,
    db: handle.db,
    config,
    root: started.root,
    async close() {
      await started.close();
      await handle.close();
    },
  };
}

/** A pino logger that keeps every line in memory, for asserting what was logged. */
export function memoryLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
