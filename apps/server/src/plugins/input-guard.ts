import { ErrorCode } from '@kyfw/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/** The answer to a text field holding U+0000 (which PostgreSQL cannot store in text). */
export const NUL_MESSAGE = '输入内容含有不允许的空字符（U+0000），请删除后重试';

/**
 * The answer to a text holding a lone UTF-16 surrogate (`"\ud800"` in JSON is valid JSON but no
 * character: PostgreSQL refuses it in text and jsonb, UTF-8 cannot encode it).
 */
export const SURROGATE_MESSAGE = '输入内容含有无法识别的字符（不成对的 UTF-16 代理项），请删除后重试';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with the first bad text in `value` (objects, arrays, keys, nested up to 32 levels). */
export function findBadText(value: unknown, depth = 0): 'nul' | 'surrogate' | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return 'nul';
    return LONE_SURROGATE.test(value) ? 'surrogate' : null;
  }
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const bad = findBadText(item, depth + 1);
      if (bad) return bad;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const bad = findBadText(key, depth + 1) ?? findBadText(item, depth + 1);
    if (bad) return bad;
  }
  return null;
}

/**
 * @throws AppError VALIDATION (1001) with NUL_MESSAGE or SURROGATE_MESSAGE when any text in
 * `values` holds U+0000 or a lone surrogate: text no table can store is bad input, never a 1000
 */
export function rejectBadText(...values: unknown[]): void {
  for (const value of values) {
    const bad = findBadText(value);
    if (bad) throw new AppError(ErrorCode.VALIDATION, bad === 'nul' ? NUL_MESSAGE : SURROGATE_MESSAGE);
  }
}

/**
 * One check at the edge for every route: a NUL or a lone surrogate in the query, the path
 * parameters or a parsed body is bad input (1001), never a database error. Multipart fields and
 * file names are read in their handler and checked there with `rejectBadText` (lib/upload.ts
 * readUpload).
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    rejectBadText(request.query, request.params, request.body);
  });
}
