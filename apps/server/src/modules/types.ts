import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** What every module gets to build its services and repos. */
export interface ModuleContext {
  config: Config;
  db: Kysely<Database>;
}

/**
 * A feature module: registers its routes (routes -> service -> repo). Mounted under API_PREFIX
 * unless it names another prefix (the sandbox control endpoints live under /__dev).
 */
export interface AppModule {
  name: string;
  /** Defaults to API_PREFIX (/kyfw/web/v1). */
  prefix?: string;
  register(app: FastifyInstance, ctx: ModuleContext): Promise<void> | void;
}
