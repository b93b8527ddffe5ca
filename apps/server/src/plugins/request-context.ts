import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `token` header (spec §7): the session token, '' when absent. */
    token: string;
    /** The `terminal` header (spec §7): 'PC' from the web app, '' when absent. */
    terminal: string;
  }
}

const REQUEST_ID_HEADER = 'x-request-id';
/** Accept an upstream proxy's id only if it looks like one; anything else could forge log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Fastify `genReqId`: keep a sane incoming X-Request-Id (from a proxy), otherwise a fresh UUID. */
export function generateRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

function firstHeader(value: string | string[] | undefined): string {
  const first = Array.isArray(value) ? value[0] : value;
  return (first ?? '').trim();
}

/**
 * Reads the spec's `token` and `terminal` headers into `request.token` / `request.terminal` and
 * echoes the request id in `X-Request-Id`, so a user's report of a failure can be found in the logs.
 * Also writes the single access-log line per request (Fastify's own two lines are switched off).
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('token', '');
  app.decorateRequest('terminal', '');
  app.addHook('onRequest', async (request, reply) => {
    request.token = firstHeader(request.headers.token);
    request.terminal = firstHeader(request.headers.terminal);
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });
}
