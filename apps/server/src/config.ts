import path from 'node:path';
import { z } from 'zod';

/** apps/web/dist of this repository, wherever the process was started from. */
const DEFAULT_WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../web/dist');

/** Unset and empty (`FOO=` in a .env file) both mean "use the default". */
function env<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

function integer(min: number, max: number) {
  return z.coerce
    .number({ error: `must be an integer between ${min} and ${max}` })
    .int({ error: `must be an integer between ${min} and ${max}` })
    .min(min, { error: `must be an integer between ${min} and ${max}` })
    .max(max, { error: `must be an integer between ${min} and ${max}` });
}

function httpUrl(message: string) {
  return z.string().refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, message);
}

/**
 * Every environment variable the server reads, with its default. Each one is documented in the
 * repository's .env.example; add new variables here, to `toConfig` and to .env.example together.
 */
export const envSchema = z.object({
  PORT: env(integer(1, 65535).default(3000)),
  HOST: env(z.string().default('0.0.0.0')),
  DATA_DIR: env(z.string().default('./data')),
  DATABASE_URL: env(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, { error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
  ),
  LOG_LEVEL: env(
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  NODE_ENV: env(
    z
      .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
      .default('development'),
  ),
  BODY_LIMIT_BYTES: env(integer(1024, 100 * 1024 * 1024).default(1024 * 1024)),
  PUBLIC_BASE_URL: env(
    httpUrl('must be an http(s) URL such as https://www.example.com').default('http://localhost:3000'),
  ),
  PROVIDERS: env(z.enum(['sandbox', 'real'], { error: 'must be sandbox or real' }).default('sandbox')),
  ALLOW_SANDBOX_IN_PRODUCTION: env(booleanFlag.default(false)),
  WORKER_IN_PROCESS: env(booleanFlag.default(true)),
  WORKER_CONCURRENCY: env(integer(1, 64).default(2)),
  WEB_DIST_DIR: env(z.string().default(DEFAULT_WEB_DIST_DIR)),
  DEVTOOLS_DETERRENT: env(z.enum(['on', 'off'], { error: 'must be on or off' }).default('on')),
});

type Env = z.output<typeof envSchema>;

function toConfig(e: Env) {
  return {
    port: e.PORT,
    host: e.HOST,
    /** Absolute; relative values are resolved against the working directory. */
    dataDir: path.resolve(e.DATA_DIR),
    /** Set: PostgreSQL server (scaled mode). Unset: embedded PGlite under dataDir. */
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    /** Without a trailing slash. */
    publicBaseUrl: e.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    providers: e.PROVIDERS,
    allowSandboxInProduction: e.ALLOW_SANDBOX_IN_PRODUCTION,
    workerInProcess: e.WORKER_IN_PROCESS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    /** Absolute. */
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    devtoolsDeterrent: e.DEVTOOLS_DETERRENT === 'on',
  };
}

export type Config = Readonly<ReturnType<typeof toConfig>>;

/** Thrown by `loadConfig` with every bad variable listed, one per line. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];

  constructor(problems: string[]) {
    super(`Invalid environment configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Parses the environment once. Throws ConfigError listing all bad variables (not only the first),
 * including the rule that a production start on sandbox providers needs ALLOW_SANDBOX_IN_PRODUCTION.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(source);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const raw = source[name];
        return `${name}: ${issue.message}${raw === undefined ? '' : ` (got ${JSON.stringify(raw)})`}`;
      });

  // Checked on the raw values so this problem is reported together with any others.
  const nodeEnv = source.NODE_ENV || 'development';
  const providers = source.PROVIDERS || 'sandbox';
  const allowSandbox = ['true', '1'].includes(source.ALLOW_SANDBOX_IN_PRODUCTION ?? '');
  if (nodeEnv === 'production' && providers === 'sandbox' && !allowSandbox) {
    problems.push(
      'PROVIDERS: the sandbox providers (fake SMS, WeChat and payments) are refused with NODE_ENV=production; set PROVIDERS=real, or ALLOW_SANDBOX_IN_PRODUCTION=true for a demo deployment',
    );
  }

  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return Object.freeze(toConfig(result.data));
}
