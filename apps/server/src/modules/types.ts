import type { Server } from 'node:http';
import type { Database, Kysely } from '@kyfw/db';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { JobDefinition } from '../jobs/job-definition.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import type { Logger } from '../lib/logger.ts';
import type { FetchFn, PaymentProviders, SandboxKeys } from '../providers/payment/index.ts';
import type { SmsSetup } from '../providers/sms/index.ts';
import type { WechatSetup } from '../providers/wechat/index.ts';
import type { Services } from './index.ts';

/**
 * Outside services handed in instead of being built from the configuration (tests; the defaults
 * come from `config`). A module reads only its own entries.
 */
export interface ProviderOverrides {
  sms?: SmsSetup;
  wechat?: WechatSetup;
  payment?: {
    /** Instead of building WeChat Pay / Alipay from configuration. */
    providers?: PaymentProviders;
    /** Transport for the adapters and the sandbox notifier (tests: createInjectFetch(() => app)). */
    fetch?: FetchFn;
    /** Fixed sandbox keys instead of generated ones. */
    sandboxKeys?: SandboxKeys;
  };
  /** Transport to the LLM endpoint (tests: createInjectFetch(() => app) to reach the mounted sandbox). */
  llmFetch?: typeof fetch;
  /** The answers of the picture checks (tests play the person who reads the picture). */
  captchaAnswer?: () => string;
}

/**
 * What this process is: `app` answers HTTP (and, embedded, runs the worker loop too) and owns the
 * in-process sandboxes; `worker` (`npm run worker`) only runs jobs — it reaches the sandboxes of
 * the API process over PUBLIC_BASE_URL and never opens their books itself.
 */
export type ProcessRole = 'app' | 'worker';

/** Everything a module's `createService` gets: the process's shared parts, built once. */
export interface ModuleDeps {
  config: Config;
  db: Kysely<Database>;
  logger: Logger;
  /** The clock of every time rule (sessions, codes, orders, checks); tests move it by hand. */
  clock: () => Date;
  providers: ProviderOverrides;
  role: ProcessRole;
  /**
   * This process's HTTP server once buildApp has made it (role 'app'; undefined before, and always
   * in a worker). Read it when a request is made, never at build time.
   */
  httpServer: () => Server | undefined;
  /**
   * The services of the modules listed before this one (modules/index.ts order): a module may use
   * only those — e.g. check uses `services.orders.api`. Reading a later one throws.
   */
  services: Services;
}

/**
 * A feature module: one folder under modules/, one entry in `serverModules` (modules/index.ts).
 * Every part is optional; createServices and buildApp call them in this order:
 *
 * 1. `createService(deps)` — once per process (API or worker), in list order. Its result is
 *    `services[name]` (declare its type in `Services`, modules/index.ts). Own your resources:
 *    return `close()` on the service when it holds threads, timers or sockets.
 * 2. `hooks(services)` — after every service exists: register on other modules' instances
 *    (`services.orders.onPaid('check', …)`, `services.accounts.hooks.onDeletion('check', …)`).
 *    Never register in a module-level variable at import time.
 * 3. `routes(app, services)` — only in the API process, under `prefix` (default /kyfw/web/v1). Pass
 *    each route plugin the services it needs as plugin options.
 * 4. `jobs` / `schedules` — run by the worker loop (in the API process or `npm run worker`);
 *    handlers take their dependencies from `ctx.services`, never from `loadConfig()` or a global.
 */
export interface ServerModule<N extends string = string> {
  name: N;
  /** Where `routes` is mounted; defaults to API_PREFIX (/kyfw/web/v1); '' for the root. */
  prefix?: string;
  createService?(deps: ModuleDeps): Promise<unknown> | unknown;
  hooks?(services: Services): void;
  routes?(app: FastifyInstance, services: Services): Promise<void> | void;
  // biome-ignore lint/suspicious/noExplicitAny: definitions of any payload type share one list
  jobs?: readonly JobDefinition<any, any>[];
  schedules?: readonly Schedule[];
}

/**
 * Declares a module whose service is `Services[N]`: the compiler checks that `createService`
 * returns what modules/index.ts promises the others.
 */
export function defineModule<N extends keyof Services & string>(
  module: Omit<ServerModule<N>, 'createService'> & {
    createService(deps: ModuleDeps): Promise<Services[N]> | Services[N];
  },
): ServerModule<N> {
  return module;
}

/** A module without a service of its own (routes, jobs or hooks over the others'). */
export function defineRoutesModule(module: Omit<ServerModule, 'createService'>): ServerModule {
  return module;
}
