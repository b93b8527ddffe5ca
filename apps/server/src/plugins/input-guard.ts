import { ErrorCode } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/** The answer to a text field holding U+0000 (which PostgreSQL cannot store in text). */
export const NUL_MESSAGE = '输入内容含有不允许的空字符（U+0000），请删除后重试';

/** Whether a string anywhere in `value` (objects, arrays, nested up to 32 levels) holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

/** @throws AppError VALIDATION (1001) with NUL_MESSAGE when any text in `values` holds U+0000 */
export function rejectNul(...values: unknown[]): void {
  if (values.some((value) => containsNul(value))) throw new AppError(ErrorCode.VALIDATION, NUL_MESSAGE);
}

/**
 * One check at the edge for every route: a NUL in the query, the path parameters or a parsed body
 * is bad input (1001), never a database error. Multipart fields and file names are read in their
 * handler and checked there with `rejectNul` (check.routes.ts readUpload).
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    rejectNul(request.query, request.params, request.body);
  });
}
