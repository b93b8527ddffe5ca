import { ErrorCode, zodFirstMessage } from '@kyfw/contracts';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error.ts';

/**
 * Parses `value` with `schema` or throws AppError(VALIDATION) whose message is the first failing
 * field's Chinese message: the schema's own message when it has one (contracts' validation rules),
 * otherwise one naming the field, e.g. `字段 phoneNumber 不能为空`.
 *
 * zod objects strip unknown keys by default, so handlers only ever see declared fields.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError(ErrorCode.VALIDATION, zodFirstMessage(result.error));
  return result.data;
}

/** The JSON body parsed with `schema`; a missing body (no payload) is treated as `{}`. */
export function parseBody<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return parseWith(schema, request.body ?? {});
}

/** The query string parsed with `schema`. Query values are strings: use z.coerce for numbers. */
export function parseQuery<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
  return parseWith(schema, request.query ?? {});
}
