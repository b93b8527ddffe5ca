import { z } from 'zod';

/**
 * Unset and blank (`FOO=` in a .env file, or only spaces) both mean "not given": the default
 * applies. The one rule every configuration schema (config.ts, modules' and providers' *.config.ts)
 * reads environment variables with.
 */
export function blankAsUnset(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** An environment variable read by `schema`, a blank value counting as unset. */
export function envVar<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankAsUnset, schema);
}

/** An integer environment variable from `min` to `max` (inclusive); any other value is refused saying so. */
export function integer(min: number, max: number) {
  const message = `must be an integer between ${min} and ${max}`;
  return z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
}

/** A yes/no environment variable: true, false, 1 or 0. */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');
