import type { Server } from 'node:http';
import type { Database, Kysely } from '@kyfw/db';
import type { Config } from './config.ts';
import type { JobDefinition } from './jobs/job-definition.ts';
import type { Schedule } from './jobs/scheduler.ts';
import type { Logger } from './lib/logger.ts';
import { type Services, serverModules } from './modules/index.ts';
import type { ModuleDeps, ProcessRole, ProviderOverrides, ServerModule } from './modules/types.ts';

export interface CreateServicesOptions {
  config: Config;
  db: Kysely<Database>;
  logger: Logger;
  /** The clock of every time rule; default the system clock (tests move one by hand). */
  clock?: () => Date;
  /** Outside services instead of the configured ones (tests). */
  providers?: ProviderOverrides;
  /** Default 'app' (the API process; embedded mode). `npm run worker` passes 'worker'. */
  role?: ProcessRole;
  /** Default every module of modules/index.ts; tests may add their own (route-only) modules. */
  modules?: readonly ServerModule[];
}

/** What createServices built: every module's service and what the HTTP app and the worker run. */
export interface ServiceRoot {
  services: Services;
  modules: readonly ServerModule[];
  /** Every job the worker loop claims (its handlers get `services` as `ctx.services`). */
  // biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
  jobs: readonly JobDefinition<any, any>[];
  /** Recurring jobs, enqueued by the scheduler beside every worker loop. */
  schedules: readonly Schedule[];
  clock: () => Date;
  role: ProcessRole;
  /** buildApp hands the services its HTTP server here (ModuleDeps.httpServer). */
  attachHttpServer(server: Server): void;
  /** Releases what the services hold (threads, sandboxes), in reverse order. Idempotent. */
  close(): Promise<void>;
}

/**
 * The composition root: builds every module's service once, in list order, then lets each module
 * register its hooks on the others' instances. buildApp (app.ts) mounts the modules' routes on the
 * result; main.ts and worker.ts run its jobs and schedules. Nothing else builds a service.
 */
export async function createServices(options: CreateServicesOptions): Promise<ServiceRoot> {
  const modules = options.modules ?? serverModules;
  const clock = options.clock ?? (() => new Date());
  const role = options.role ?? 'app';
  const built: Record<string, unknown> = {};
  // A module sees only the services built before it: reading a later one is a wiring mistake.
  const services = new Proxy(built, {
    get(target, name) {
      if (typeof name === 'string' && !(name in target) && modules.some((m) => m.name === name)) {
        throw new Error(`service "${name}" is not built yet: list its module earlier in modules/index.ts`);
      }
      return target[name as string];
    },
  }) as unknown as Services;
  let httpServer: Server | undefined;
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closeOne of closers.splice(0).reverse()) await closeOne();
  };

  try {
    for (const module of modules) {
      if (!module.createService) continue;
      const deps: ModuleDeps = {
        config: options.config,
        db: options.db,
        logger: options.logger,
        clock,
        providers: options.providers ?? {},
        role,
        httpServer: () => httpServer,
        services,
      };
      const service = await module.createService(deps);
      built[module.name] = service;
      const closeService = (service as { close?: () => Promise<void> } | undefined)?.close;
      if (typeof closeService === 'function') closers.push(() => closeService.call(service));
    }
    for (const module of modules) module.hooks?.(services);
  } catch (error) {
    await close();
    throw error;
  }

  return {
    services,
    modules,
    jobs: modules.flatMap((m) => m.jobs ?? []),
    schedules: modules.flatMap((m) => m.schedules ?? []),
    clock,
    role,
    attachHttpServer(server) {
      httpServer = server;
    },
    close,
  };
}
