import {
  API_PREFIX,
  ErrorCode,
  type ErrorCodeValue,
  ErrorMessage,
  fail,
  zodFirstMessage,
} from '@kyfw/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/app-error.ts';

/** Paths answered with the JSON envelope (HTTP 200) rather than plain HTTP errors. */
const ENVELOPE_PATH_PREFIXES = [API_PREFIX, '/__dev'];

export function isEnvelopePath(url: string): boolean {
  return ENVELOPE_PATH_PREFIXES.some(
    (prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`),
  );
}

export interface Failure {
  code: ErrorCodeValue;
  message: string;
  /** HTTP status used outside the API (the API always answers 200). */
  httpStatus: number;
  /** A bug or an outage rather than a bad request: logged as an error, message masked. */
  isUnexpected: boolean;
}

function failure(code: ErrorCodeValue, httpStatus: number, message?: string): Failure {
  return { code, message: message ?? ErrorMessage[code], httpStatus, isUnexpected: false };
}

/** Maps anything thrown while handling a request to the envelope's code and Chinese message. */
export function classifyError(error: unknown): Failure {
  if (error instanceof AppError) return failure(error.code, httpStatusOf(error.code), error.message);
  if (error instanceof z.ZodError) return failure(ErrorCode.VALIDATION, 400, zodFirstMessage(error));

  const fastifyError = error as Partial<FastifyError> | undefined;
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return failure(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 415);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return failure(ErrorCode.PAYLOAD_TOO_LARGE, 413);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return failure(ErrorCode.MALFORMED_BODY, 400);
  }
  if (fastifyError?.validation) return failure(ErrorCode.VALIDATION, 400, describeSchemaError(fastifyError));

  const status = fastifyError?.statusCode;
  if (status === 413) return failure(ErrorCode.PAYLOAD_TOO_LARGE, 413);
  if (status === 415) return failure(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 415);
  if (status === 429) return failure(ErrorCode.RATE_LIMITED, 429);
  if (status === 404) return failure(ErrorCode.NOT_FOUND, 404);
  if (status !== undefined && status >= 400 && status < 500) return failure(ErrorCode.VALIDATION, status);
  return {
    code: ErrorCode.INTERNAL,
    message: ErrorMessage[ErrorCode.INTERNAL],
    httpStatus: 500,
    isUnexpected: true,
  };
}

/** HTTP status for an error code outside the API (pages, assets), where plain HTTP semantics apply. */
function httpStatusOf(code: ErrorCodeValue): number {
  switch (code) {
    case ErrorCode.NOT_FOUND:
    case ErrorCode.RESOURCE_NOT_FOUND:
      return 404;
    case ErrorCode.UNAUTHORIZED:
      return 401;
    case ErrorCode.FORBIDDEN:
    case ErrorCode.DEV_ONLY:
      return 403;
    case ErrorCode.CONFLICT:
      return 409;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return 413;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return 415;
    case ErrorCode.RATE_LIMITED:
      return 429;
    case ErrorCode.INTERNAL:
      return 500;
    default:
      return 400;
  }
}

/** For routes that use Fastify's JSON-schema validation instead of zod: name the field. */
function describeSchemaError(error: Partial<FastifyError>): string {
  const first = error.validation?.[0];
  const missing = first?.params?.missingProperty;
  if (typeof missing === 'string') return `字段 ${missing} 不能为空`;
  const field = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  return field ? `字段 ${field} 格式错误` : ErrorMessage[ErrorCode.VALIDATION];
}

/** Sends a failure: HTTP 200 + envelope on API paths (spec §7), the HTTP status elsewhere. */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, f: Failure) {
  reply.code(isEnvelopePath(request.url) ? 200 : f.httpStatus);
  return reply.send(fail(f.code, f.message));
}

/**
 * Body parsing and the one error handler.
 *
 * - JSON: an empty body counts as "no payload" (the web sends POSTs without a body for calls such as
 *   /qrCode); malformed JSON, and __proto__ / constructor poisoning, become MALFORMED_BODY.
 * - Only JSON is parsed here; any other content type is UNSUPPORTED_MEDIA_TYPE (upload routes add a
 *   multipart parser in their own scope).
 * - Bodies over `bodyLimit` are PAYLOAD_TOO_LARGE.
 * - Unexpected errors are logged with the request id (pino's reqId) and answered with the masked
 *   INTERNAL message; their text never leaves the server.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      done(error ? new AppError(ErrorCode.MALFORMED_BODY) : null, value);
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const f = classifyError(error);
    if (f.isUnexpected) {
      request.log.error({ err: error }, 'unexpected error');
    } else {
      request.log.info({ code: f.code, reason: (error as Error).message }, 'request rejected');
    }
    return sendFailure(request, reply, f);
  });
}
