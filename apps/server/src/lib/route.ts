import type { Endpoint, Envelope } from '@kyfw/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { parseWith } from './validate.ts';

/** What a route handler gets: the caller (when the route asks for one) and the parsed request. */
export interface RouteInput<E extends Endpoint, A> {
  /** What `options.auth` returned (e.g. the session of requireUser), before anything was parsed. */
  auth: A;
  body: E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
  query: E['query'] extends z.ZodType ? z.output<E['query']> : undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A JSON endpoint answers the envelope whose data its schema accepts; a download sends the reply.
 * A JSON endpoint may send a pre-serialised envelope itself (the stored report model, which is not
 * parsed and stringified per request) and return the reply.
 */
export type RouteResult<E extends Endpoint> = E['data'] extends z.ZodType
  ? Envelope<z.input<E['data']>> | FastifyReply
  : FastifyReply;

export interface RouteOptions<A> {
  /**
   * Who may call, checked before the request is parsed (a caller without a session gets 请先登录,
   * not a complaint about the body): e.g. requireUser or optionalUser of modules/accounts/auth.ts.
   */
  auth?: (request: FastifyRequest) => Promise<A>;
  /** Also answer GET (downloads and lists a link may open). Default: the endpoint's method only. */
  alsoGet?: boolean;
  /** Fastify route config, e.g. `{ rateLimit }`. */
  config?: RouteShorthandOptions['config'];
  /** Told of a body/query the schemas refuse (after `auth`), before the 1001 goes out: e.g. to audit it. */
  onInvalid?: (error: unknown, auth: A, request: FastifyRequest) => Promise<void>;
}

/** Thrown (tests) when an answer does not match its endpoint's data schema. */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
}

/**
 * Registers `endpoint` on `app`: parses its body/query with the contract's schemas (first failing
 * field's Chinese message -> 1001, unknown keys stripped), runs `handler`, and serialises the
 * envelope's data through the contract's data schema (only declared fields leave the server). The
 * route carries its endpoint in `config.endpoint`, which apps/server/test/contracts.test.ts walks.
 */
export function route<E extends Endpoint, A = undefined>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: RouteInput<E, A>) => Promise<RouteResult<E>>,
  options: RouteOptions<A> = {},
): void {
  const methods =
    options.alsoGet && endpoint.method !== 'GET' ? [endpoint.method, 'GET' as const] : [endpoint.method];
  app.route({
    method: methods,
    url: endpoint.path,
    config: { ...options.config, endpoint },
    handler: async (request, reply) => {
      const auth = options.auth ? await options.auth(request) : undefined;
      // A download opened by a link (alsoGet) carries its fields in the query string.
      const fields = request.method === 'GET' && endpoint.method !== 'GET' ? request.query : request.body;
      let body: unknown;
      let query: unknown;
      try {
        body = endpoint.body ? parseWith(endpoint.body, fields ?? {}) : undefined;
        query = endpoint.query ? parseWith(endpoint.query, request.query ?? {}) : undefined;
      } catch (error) {
        await options.onInvalid?.(error, auth as A, request);
        throw error;
      }
      const result = await handler({ auth, body, query, request, reply } as RouteInput<E, A>);
      if (endpoint.data === 'file' || result === reply) return result;
      return serialise(endpoint, endpoint.data, result as Envelope<unknown>, request, isStrict(app));
    },
  });
}

/**
 * Whether an answer outside its contract fails the request (NODE_ENV=test: the integration suite's
 * traffic is checked) or is logged and sent as it is (the user still gets the answer; the log says
 * where the contract is wrong). buildApp decorates the app with `strictContracts`.
 */
function isStrict(app: FastifyInstance): boolean {
  return (app as FastifyInstance & { strictContracts?: boolean }).strictContracts === true;
}

function serialise(
  endpoint: Endpoint,
  schema: z.ZodType,
  envelope: Envelope<unknown>,
  request: FastifyRequest,
  strict: boolean,
) {
  const parsed = schema.safeParse(envelope.data);
  if (parsed.success) return { ...envelope, data: parsed.data };
  const detail = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`)
    .join('; ');
  if (strict) {
    throw new ContractViolationError(`${endpoint.path} answered outside its contract: ${detail}`);
  }
  request.log.error({ endpoint: endpoint.path, detail }, 'answer does not match its contract');
  return envelope;
}
