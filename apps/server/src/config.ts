import path from 'node:path';
import { z } from 'zod';
import { booleanFlag, envVar as env, integer } from './lib/env.ts';
import type { StorageConfig } from './lib/storage/index.ts';
import { uploadConfigOf, uploadEnvSchema } from './lib/upload.config.ts';
import { checkConfigOf, checkEnvSchema } from './modules/check/check.config.ts';
import { aiQuotaConfigOf, aiQuotaEnvSchema } from './modules/llm/ai-quota.config.ts';
import { listOrdersConfigProblems, ordersConfigOf, ordersEnvSchema } from './modules/orders/orders.config.ts';
import { listLlmConfigProblems, llmConfigOf, llmEnvSchema } from './providers/llm/llm.config.ts';
import { listMailConfigProblems, type MailConfig, mailConfigSchema } from './providers/mail/index.ts';
import { paymentConfigSchema } from './providers/payment/payment.config.ts';
import { type SmsConfig, smsConfigSchema } from './providers/sms/sms.config.ts';
import { type WechatConfig, wechatConfigSchema } from './providers/wechat/wechat.config.ts';

/** apps/web/dist of this repository, wherever the process was started from. */
const DEFAULT_WEB_DIST_DIR = path.resolve(import.meta.dirname, '../../web/dist');

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
  // 0 picks a free port (tests).
  PORT: env(integer(0, 65535).default(3000)),
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
  // Unset: http://localhost:<PORT>, the address this process listens on.
  PUBLIC_BASE_URL: env(httpUrl('must be an http(s) URL such as https://www.example.com').optional()),
  // Connections: a request must arrive whole within HTTP_REQUEST_TIMEOUT_SECONDS (headers within
  // HTTP_HEADERS_TIMEOUT_SECONDS); a connection silent for HTTP_IDLE_TIMEOUT_SECONDS is closed; one
  // client address keeps at most HTTP_MAX_CONNECTIONS_PER_CLIENT connections open (0: no limit).
  HTTP_REQUEST_TIMEOUT_SECONDS: env(integer(1, 3600).default(300)),
  HTTP_HEADERS_TIMEOUT_SECONDS: env(integer(1, 3600).default(20)),
  HTTP_IDLE_TIMEOUT_SECONDS: env(integer(1, 3600).default(30)),
  HTTP_MAX_CONNECTIONS_PER_CLIENT: env(integer(0, 100_000).default(64)),
  // A request body may take HTTP_BODY_TIMEOUT_SECONDS plus one second per
  // HTTP_BODY_MIN_BYTES_PER_SECOND bytes received (at most the request timeout): a body dripped a
  // byte at a time cannot hold a connection for HTTP_REQUEST_TIMEOUT_SECONDS.
  HTTP_BODY_TIMEOUT_SECONDS: env(integer(1, 3600).default(20)),
  HTTP_BODY_MIN_BYTES_PER_SECOND: env(integer(1, 100_000_000).default(1024)),
  // Where per-client request limits count: memory (one process) or database (shared by every API
  // process). Default: database with DATABASE_URL (scaled mode), memory otherwise.
  RATE_LIMIT_STORE: env(z.enum(['memory', 'database'], { error: 'must be memory or database' }).optional()),
  PROVIDERS: env(z.enum(['sandbox', 'real'], { error: 'must be sandbox or real' }).default('sandbox')),
  ALLOW_SANDBOX_IN_PRODUCTION: env(booleanFlag.default(false)),
  // The demo mode (production on sandboxes): the /__dev controls answer a request from another
  // machine only with this value in the X-Dev-Controls-Secret header; unset, loopback only.
  DEV_CONTROLS_SECRET: env(
    z.string().min(24, { error: 'must be at least 24 characters (use a long random value)' }).optional(),
  ),
  WORKER_IN_PROCESS: env(booleanFlag.default(true)),
  WORKER_CONCURRENCY: env(integer(1, 64).default(2)),
  // A worker's claim on a job lasts this long and is renewed every third of it while the job runs;
  // a worker that dies leaves its jobs to others once the lease has run out.
  JOB_LEASE_SECONDS: env(integer(15, 3600).default(60)),
  WEB_DIST_DIR: env(z.string().default(DEFAULT_WEB_DIST_DIR)),
  DEVTOOLS_DETERRENT: env(z.enum(['on', 'off'], { error: 'must be on or off' }).default('on')),
  // Behind a reverse proxy: the proxies' addresses or CIDR ranges (comma-separated, or names like
  // loopback / uniquelocal) whose X-Forwarded-For is believed, so the per-IP limits (SMS, login)
  // see the client's address. Empty: none. (Fastify refuses bare hop counts: they let a direct
  // client spoof its address.)
  TRUST_PROXY: env(
    z
      .string()
      .trim()
      .regex(
        /^[0-9A-Za-z.:/,\s]*$/,
        'must be comma-separated IP addresses, CIDR ranges or loopback/linklocal/uniquelocal',
      )
      .default(''),
  ),

  // Files (lib/storage): uploads, reports, proofs, invoices. local = DATA_DIR/files; s3 = an
  // S3-compatible object store shared by every machine of the scaled mode.
  STORAGE: env(z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local')),
  S3_ENDPOINT: env(
    httpUrl('must be an http(s) URL such as https://s3.cn-north-1.amazonaws.com.cn').optional(),
  ),
  S3_REGION: env(z.string().trim().min(1).default('us-east-1')),
  S3_BUCKET: env(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be a bucket name (3-63 of a-z 0-9 . -)' })
      .optional(),
  ),
  S3_ACCESS_KEY_ID: env(z.string().trim().min(1).optional()),
  S3_SECRET_ACCESS_KEY: env(z.string().min(1).optional()),
  S3_PREFIX: env(
    z
      .string()
      .regex(/^([A-Za-z0-9._-]+\/)*$/, { error: 'must be empty or folder names each ending with /' })
      .default(''),
  ),

  // E-mail of issued invoices (providers/mail): sandbox (kept in DATA_DIR/sandbox/mail-outbox) or
  // smtp; MAIL_PROVIDER follows PROVIDERS (real: smtp) unless set.
  MAIL_PROVIDER: env(z.enum(['sandbox', 'smtp'], { error: 'must be sandbox or smtp' }).optional()),
  ...mailConfigSchema.shape,

  // Accounts (modules/accounts): SMS and WeChat providers, each defaulting to PROVIDERS.
  ...smsConfigSchema.shape,
  SMS_PROVIDER: env(
    z.enum(['sandbox', 'aliyun', 'tencent'], { error: 'must be sandbox, aliyun or tencent' }).optional(),
  ),
  ...wechatConfigSchema.shape,
  WECHAT_PROVIDER: env(z.enum(['sandbox', 'real'], { error: 'must be sandbox or real' }).optional()),
  PASSWORD_SCRYPT_COST: env(integer(10, 20).default(15)),
  // SMS codes per client address (accounts.policy.ts, decision 0030): a flood ceiling sized for a
  // campus behind one address, a picture check past SMS_IP_CAPTCHA_AFTER sends an hour, and a block
  // after SMS_IP_MAX_FAILURES_PER_HOUR failures (wrong codes, wrong picture checks) in an hour.
  SMS_IP_MAX_PER_MINUTE: env(integer(1, 10_000).default(20)),
  SMS_IP_MAX_PER_HOUR: env(integer(1, 100_000).default(300)),
  SMS_IP_MAX_PER_DAY: env(integer(1, 1_000_000).default(1000)),
  SMS_IP_CAPTCHA_AFTER: env(integer(0, 100_000).default(3)),
  SMS_IP_MAX_FAILURES_PER_HOUR: env(integer(1, 100_000).default(30)),
  ACCOUNT_NOTICE_SMS_TEMPLATE: env(z.string().trim().min(1).optional()),
  COMMISSION_DONE_SMS_TEMPLATE: env(z.string().trim().min(1).optional()),
  ORDER_REFUND_SMS_TEMPLATE: env(z.string().trim().min(1).optional()),
  ACCOUNT_DIGEST_SECRET: env(
    z.string().min(32, { error: 'must be at least 32 characters (use a long random value)' }).optional(),
  ),
  // The operator console (modules/console): the key sealing staff TOTP secrets and recovery codes.
  STAFF_SECRET_KEY: env(
    z.string().min(32, { error: 'must be at least 32 characters (use a long random value)' }).optional(),
  ),
  // The key before a rotation: still accepted for reading while `operator -- rotate-key` re-seals.
  STAFF_SECRET_KEY_PREVIOUS: env(
    z.string().min(32, { error: 'must be at least 32 characters (use a long random value)' }).optional(),
  ),

  // Orders and payment (modules/orders): WeChat Pay / Alipay credentials, PAYMENT_PROVIDER, order
  // expiry, operator token, offline transfer details, invoices.
  ...paymentConfigSchema.shape,
  ...ordersEnvSchema.shape,

  // Paper check (modules/check): upload cap, free-check cap, library folder, report signing.
  ...checkEnvSchema.shape,

  // Every upload route (lib/upload.config.ts): per-client rate limit, per-account storage quota.
  ...uploadEnvSchema.shape,

  // LLM (providers/llm): an OpenAI-compatible endpoint for AI writing and 降重; LLM_PROVIDER
  // follows PROVIDERS (real: openai) unless set.
  ...llmEnvSchema.shape,
  // Quotas of the free AI calls, the global daily token budget, the ceiling per paid order (0028).
  ...aiQuotaEnvSchema.shape,
});

type Env = z.output<typeof envSchema>;

/** PUBLIC_BASE_URL as given, else the listening address http://localhost:<PORT>. */
function withPublicBaseUrl(e: Env): Env & { PUBLIC_BASE_URL: string } {
  return { ...e, PUBLIC_BASE_URL: e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}` };
}

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
    /** Without a trailing slash; unset, the listening address http://localhost:<PORT>. */
    publicBaseUrl: withPublicBaseUrl(e).PUBLIC_BASE_URL.replace(/\/+$/, ''),
    /** Timeouts in ms and the per-client connection limit (plugins/connection-limits.ts). */
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_SECONDS, e.HTTP_REQUEST_TIMEOUT_SECONDS) * 1000,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerClient: e.HTTP_MAX_CONNECTIONS_PER_CLIENT,
      bodyGraceMs: Math.min(e.HTTP_BODY_TIMEOUT_SECONDS, e.HTTP_REQUEST_TIMEOUT_SECONDS) * 1000,
      bodyMinBytesPerSecond: e.HTTP_BODY_MIN_BYTES_PER_SECOND,
    },
    /** Where the per-client request limits count (lib/rate-limit-store.ts). */
    rateLimitStore: e.RATE_LIMIT_STORE ?? (e.DATABASE_URL ? 'database' : 'memory'),
    providers: e.PROVIDERS,
    allowSandboxInProduction: e.ALLOW_SANDBOX_IN_PRODUCTION,
    /**
     * The demo mode: a production start on sandboxes (ALLOW_SANDBOX_IN_PRODUCTION). Every page says
     * so, and the /__dev controls answer only loopback or DEV_CONTROLS_SECRET (plugins/dev-gate.ts).
     */
    demoMode: e.NODE_ENV === 'production' && e.ALLOW_SANDBOX_IN_PRODUCTION,
    /** X-Dev-Controls-Secret that opens the /__dev controls to another machine in the demo mode. */
    devControlsSecret: e.DEV_CONTROLS_SECRET,
    workerInProcess: e.WORKER_IN_PROCESS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    /** A worker's lease on a claimed job (jobs/worker.ts), renewed every third of it. */
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    /** Absolute. */
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    devtoolsDeterrent: e.DEVTOOLS_DETERRENT === 'on',
    /** Proxy addresses/CIDRs whose X-Forwarded-For is trusted (Fastify trustProxy); empty trusts none. */
    trustProxy: e.TRUST_PROXY.split(',')
      .map((part) => part.trim())
      .filter(Boolean),
    /** Where files go (lib/storage): DATA_DIR/files, or the S3 store of STORAGE=s3. */
    storage: storageConfigOf(e),
    /** E-mail of issued invoices (providers/mail); MAIL_PROVIDER follows PROVIDERS (real: smtp). */
    mail: mailConfigOf(e),
    /** SMS provider settings (providers/sms); SMS_PROVIDER follows PROVIDERS unless set. */
    sms: smsConfigOf(e),
    /** WeChat Official Account settings (providers/wechat); WECHAT_PROVIDER follows PROVIDERS unless set. */
    wechat: wechatConfigOf(e),
    accounts: {
      /** log2 of scrypt's N for password hashes (15 = 32768). */
      passwordScryptCost: e.PASSWORD_SCRYPT_COST,
      /** SMS codes per client IP per minute / hour / day. */
      smsIpLimits: {
        perMinute: e.SMS_IP_MAX_PER_MINUTE,
        perHour: e.SMS_IP_MAX_PER_HOUR,
        perDay: e.SMS_IP_MAX_PER_DAY,
      },
      /** Sends from one address in an hour after which each send needs a picture check (0: always). */
      smsIpCaptchaAfter: e.SMS_IP_CAPTCHA_AFTER,
      /** Failures (wrong SMS codes, wrong picture checks) of one address in an hour that block its sends. */
      smsIpMaxFailuresPerHour: e.SMS_IP_MAX_FAILURES_PER_HOUR,
      /** Provider template for the inactivity notice SMS; unset: the notice is only recorded. */
      noticeSmsTemplate: e.ACCOUNT_NOTICE_SMS_TEMPLATE,
      /**
       * Provider template for the 'your commissioned report is ready' SMS (one variable, the order
       * number); unset with a real provider: no SMS (the sandbox outbox always receives it).
       */
      commissionDoneSmsTemplate: e.COMMISSION_DONE_SMS_TEMPLATE,
      /**
       * Provider template for the 'your order was refunded' SMS (one variable, the order number);
       * unset with a real provider: no SMS (the sandbox outbox always receives it).
       */
      orderRefundSmsTemplate: e.ORDER_REFUND_SMS_TEMPLATE,
      /**
       * HMAC key of the digests kept of phone numbers and WeChat openids that earned the free
       * services. Unset: generated once into DATA_DIR/secrets/account-digest.key (embedded mode);
       * required when several machines share the database (DATABASE_URL in production).
       */
      digestSecret: e.ACCOUNT_DIGEST_SECRET,
    },
    /** Orders and payment (modules/orders/orders.config.ts); PAYMENT_PROVIDER follows PROVIDERS unless set. */
    orders: ordersConfigOf(withPublicBaseUrl(e)),
    /** Paper check (modules/check/check.config.ts). */
    check: checkConfigOf(e),
    /** Every upload route: per-client rate limit and per-account storage quota (lib/upload.config.ts). */
    uploads: uploadConfigOf(e),
    /** LLM endpoint (providers/llm/llm.config.ts); the sandbox unless PROVIDERS=real or LLM_PROVIDER=openai. */
    llm: llmConfigOf(e, e.PROVIDERS),
    /** Free AI call quotas, daily token budget, per-order ceiling (modules/llm/ai-quota.config.ts). */
    aiQuota: aiQuotaConfigOf(e),
    /**
     * The operator console: the key sealing staff TOTP secrets (AES-256-GCM) and recovery codes
     * (HMAC). Unset: generated once into DATA_DIR/secrets/staff-secret.key (embedded mode);
     * required with DATABASE_URL in production. `previousSecretKey` (STAFF_SECRET_KEY_PREVIOUS):
     * the key before a rotation, still read (never written) until `operator -- rotate-key` ran.
     */
    console: { secretKey: e.STAFF_SECRET_KEY, previousSecretKey: e.STAFF_SECRET_KEY_PREVIOUS },
  };
}

function storageConfigOf(e: Env): StorageConfig {
  if (e.STORAGE === 'local') return { kind: 'local' };
  return {
    kind: 's3',
    endpoint: e.S3_ENDPOINT!,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    prefix: e.S3_PREFIX,
  };
}

function mailConfigOf(e: Env): MailConfig {
  const keys = Object.keys(mailConfigSchema.shape) as (keyof typeof mailConfigSchema.shape)[];
  const picked = Object.fromEntries(keys.map((k) => [k, e[k]])) as Omit<MailConfig, 'MAIL_PROVIDER'>;
  return { ...picked, MAIL_PROVIDER: e.MAIL_PROVIDER ?? (e.PROVIDERS === 'real' ? 'smtp' : 'sandbox') };
}

/** STORAGE=s3 needs its endpoint, bucket and keys. */
function listStorageProblems(e: Env): string[] {
  if (e.STORAGE !== 's3') return [];
  const required = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  return required.filter((name) => !e[name]).map((name) => `${name}: required with STORAGE=s3`);
}

function smsConfigOf(e: Env): SmsConfig {
  const keys = Object.keys(smsConfigSchema.shape) as (keyof SmsConfig)[];
  const picked = Object.fromEntries(keys.map((k) => [k, e[k]])) as SmsConfig;
  // PROVIDERS=real without SMS_PROVIDER means Aliyun; its missing keys are reported at start.
  return { ...picked, SMS_PROVIDER: e.SMS_PROVIDER ?? (e.PROVIDERS === 'real' ? 'aliyun' : 'sandbox') };
}

function wechatConfigOf(e: Env): WechatConfig {
  const keys = Object.keys(wechatConfigSchema.shape) as (keyof WechatConfig)[];
  const picked = Object.fromEntries(keys.map((k) => [k, e[k]])) as WechatConfig;
  return { ...picked, WECHAT_PROVIDER: e.WECHAT_PROVIDER ?? e.PROVIDERS };
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

/** Variables whose values are never echoed in configuration errors (keys, tokens, URLs with passwords). */
const SECRET_NAME = /SECRET|KEY|TOKEN|PASSWORD|PRIVATE|DATABASE_URL/;

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
        // Echo the bad value to help the operator, never for a variable that may hold a secret.
        const shown = raw === undefined || SECRET_NAME.test(name) ? '' : ` (got ${JSON.stringify(raw)})`;
        return `${name}: ${issue.message}${shown}`;
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

  problems.push(...listAccountProviderProblems(source, result.success ? result.data : undefined));
  if (result.success)
    problems.push(...listOrdersConfigProblems(withPublicBaseUrl(result.data), allowSandbox));
  if (result.success) problems.push(...listStorageProblems(result.data));
  if (result.success) problems.push(...listMailConfigProblems(mailConfigOf(result.data)));
  if (result.success) {
    // PROVIDERS=sandbox in production is refused above already; this adds an explicit LLM_PROVIDER=sandbox.
    const production = result.data.NODE_ENV === 'production' && result.data.PROVIDERS === 'real';
    problems.push(
      ...listLlmConfigProblems(llmConfigOf(result.data, result.data.PROVIDERS), { production, allowSandbox }),
    );
  }

  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return Object.freeze(toConfig(result.data));
}

/**
 * A production start on a sandbox SMS, WeChat or mail, chosen explicitly beside PROVIDERS=real, is refused
 * like PROVIDERS=sandbox. Missing credentials of a real SMS or WeChat provider are reported when the
 * accounts module builds the provider at start (createSmsProvider / createWechatProvider list them).
 */
function listAccountProviderProblems(source: NodeJS.ProcessEnv, e: Env | undefined): string[] {
  if (e?.NODE_ENV !== 'production' || e.PROVIDERS !== 'real') return [];
  if (['true', '1'].includes(source.ALLOW_SANDBOX_IN_PRODUCTION ?? '')) return [];
  const problems: string[] = [];
  if (smsConfigOf(e).SMS_PROVIDER === 'sandbox') {
    problems.push('SMS_PROVIDER: sandbox is refused with NODE_ENV=production');
  }
  if (wechatConfigOf(e).WECHAT_PROVIDER === 'sandbox') {
    problems.push('WECHAT_PROVIDER: sandbox is refused with NODE_ENV=production');
  }
  if (mailConfigOf(e).MAIL_PROVIDER === 'sandbox') {
    problems.push('MAIL_PROVIDER: sandbox is refused with NODE_ENV=production');
  }
  return problems;
}
