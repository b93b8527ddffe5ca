import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import { API_PREFIX, type Endpoint, ErrorCode } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from './config.ts';
import { AppError } from './lib/app-error.ts';
import { clockDevRoutes, type MovableClock } from './lib/dev-clock.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { registerAuth } from './modules/accounts/index.ts';
import { answerClientError, limitBodyTime, limitConnectionsPerClient } from './plugins/connection-limits.ts';
import { registerConsoleOrigin } from './plugins/console-origin.ts';
import { registerDevGate } from './plugins/dev-gate.ts';
import { classifyError, isEnvelopePath, registerErrorHandling, sendFailure } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { generateRequestId, registerRequestContext } from './plugins/request-context.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { isAssetPath, registerWebApp } from './plugins/web-app.ts';
import type { ServiceRoot } from './services.ts';

/** A registered route and the endpoint contract it declares (lib/route.ts), if any. */
export interface RegisteredRoute {
  method: string;
  url: string;
  endpoint: Endpoint | undefined;
}

export interface BuildAppOptions {
  config: Config;
  db: Kysely<Database>;
  /** Every module's service (createServices, role 'app'); the modules' routes are mounted on them. */
  services: ServiceRoot;
  /** Defaults to a pino logger at config.logLevel; pass the one the services were built with. */
  logger?: Logger;
  /** The clock the services were built on, when tests may move it (GET/POST /__dev/clock). */
  devClock?: MovableClock;
}

/** Unknown API paths per client IP and window: enough for a person, too few to scan for endpoints. */
const NOT_FOUND_LIMIT = { max: 30, timeWindow: 10_000 };

/**
 * Builds the whole HTTP app without listening: main.ts calls `listen`, tests call `inject`. The
 * services come built (createServices, services.ts); the caller closes them after the app.
 *
 * Order: request context (ids, token/terminal headers, access log) -> body parsing and the one
 * error handler -> feature modules under /kyfw/web/v1 -> the built SPA -> the not-found handler
 * (envelope for API paths, index.html history fallback for page paths).
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db, services } = options;
  if (services.role !== 'app') throw new Error('buildApp needs services built with role app');
  const app = Fastify({
    loggerInstance: (options.logger ?? createLogger(config)) as FastifyBaseLogger,
    genReqId: generateRequestId,
    // One access-log line per request, written in request-context.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // request.ip is the client's address behind the trusted proxies (per-IP limits use it).
    ...(config.trustProxy.length > 0 ? { trustProxy: config.trustProxy } : {}),
    // Malformed URLs and similar router-level failures get the envelope too.
    frameworkErrors: (error, request, reply) => sendFailure(request, reply, classifyError(error)),
    // A slow or silent client cannot hold a connection: the request must arrive within
    // requestTimeout, and a socket idle for connectionTimeout is closed (slow-body attacks).
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.idleTimeoutMs,
    // What the HTTP parser cannot read (a Content-Length shorter than the body, a request timeout)
    // is answered in the envelope too, not with Node's English `400 Client Error`.
    clientErrorHandler: answerClientError,
  });
  app.server.headersTimeout = config.http.headersTimeoutMs;
  services.attachHttpServer(app.server);
  limitConnectionsPerClient(app.server, config.http.maxConnectionsPerClient);
  limitBodyTime(app.server, {
    graceMs: config.http.bodyGraceMs,
    minBytesPerSecond: config.http.bodyMinBytesPerSecond,
    maxMs: config.http.requestTimeoutMs,
  });

  // lib/route.ts: in tests an answer outside its contract fails the request instead of being logged.
  app.decorate('strictContracts', config.nodeEnv === 'test');
  // Every route as registered, with the endpoint contract it declares (test/contracts.test.ts walks it).
  const routeTable: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const endpoint = (route.config as { endpoint?: Endpoint } | undefined)?.endpoint;
    for (const method of methods) routeTable.push({ method, url: route.url, endpoint });
  });
  app.decorate('routeTable', routeTable);
  registerRequestContext(app);
  registerSecurityHeaders(app, { publicBaseUrl: config.publicBaseUrl });
  // Answers above 1 KB in br or gzip (a fast brotli level: computed per answer). Built assets come
  // pre-compressed from the build (web-app.ts) and are not compressed again.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  registerErrorHandling(app);
  registerInputGuard(app);
  registerDevGate(app, { demoMode: config.demoMode, secret: config.devControlsSecret });
  registerConsoleOrigin(app, { publicBaseUrl: config.publicBaseUrl });
  // Per-client limits; in the database when several API processes share it (scaled mode).
  await app.register(rateLimit, {
    global: false,
    ...(config.rateLimitStore === 'database' ? { store: databaseRateLimitStore(db) } : {}),
  });
  // Sessions for every module: requireUser / optionalUser (modules/accounts/auth.ts) read the token.
  registerAuth(app, { db, now: services.clock });
  if (options.devClock) await app.register(clockDevRoutes, { clock: options.devClock });

  for (const module of services.modules) {
    const routes = module.routes;
    if (!routes) continue;
    await app.register(async (scope) => routes(scope, services.services), {
      prefix: module.prefix ?? API_PREFIX,
    });
  }

  const webApp = await registerWebApp(app, config);
  const checkNotFoundRate = app.createRateLimit(NOT_FOUND_LIMIT);

  app.setNotFoundHandler(async (request, reply) => {
    const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
    if (isPageRequest && !isEnvelopePath(request.url) && !isAssetPath(request.url)) {
      // The page's title, description and Open Graph tags; 404 for a path that is no page of the web
      // app (packages/contracts/src/routes.ts) or an unknown article.
      if (webApp) {
        const pathname = request.url.split('?')[0]!;
        return webApp.sendIndex(reply, await services.services.news.pageHead(pathname), pathname);
      }
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('网页应用尚未构建：请先运行 npm run build');
    }
    if (isEnvelopePath(request.url)) {
      const limit = await checkNotFoundRate(request);
      if (!limit.isAllowed && limit.isExceeded) throw new AppError(ErrorCode.RATE_LIMITED);
    }
    request.log.info({ method: request.method, url: request.url }, 'no such route');
    throw new AppError(ErrorCode.NOT_FOUND);
  });

  return app;
}
