import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Database, Kysely } from '@kyfw/db';
import { createTestDb } from '@kyfw/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { Logger } from '../src/lib/logger.ts';
import { appModules } from '../src/modules/index.ts';
import type { AppModule } from '../src/modules/types.ts';

/** A folder that never exists: tests run API-only unless they point WEB_DIST_DIR at a fixture. */
const NO_WEB_DIST = path.join(os.tmpdir(), 'kyfw-test-no-web-dist');

/** Config as in production, but quiet, test mode and without a web build; `env` overrides. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(os.tmpdir(), 'kyfw-test-data'),
    WEB_DIST_DIR: NO_WEB_DIST,
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh database (in-memory PGlite; a throwaway PostgreSQL database when
 * DATABASE_URL is set). Call it in `beforeAll` and `close()` in `afterAll`.
 */
export async function buildTestApp(
  options: { env?: Record<string, string>; modules?: readonly AppModule[]; logger?: Logger } = {},
): Promise<TestApp> {
  const handle = await createTestDb();
  const config = testConfig(options.env);
  const app = await buildApp({
    config,
    db: handle.db,
    logger: options.logger,
    modules: options.modules ?? appModules,
  });
  await app.ready();
  return {
    app,
    db: handle.db,
    config,
    async close() {
      await app.close();
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
