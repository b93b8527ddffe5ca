import { z } from 'zod';
import type { StaffPermission } from './staff-permissions.ts';

/**
 * One API endpoint's wire: its path under API_PREFIX, its method, what it reads (a JSON body or a
 * query) and the `data` its success envelope carries. The server validates requests and serialises
 * answers through these schemas (apps/server/src/lib/route.ts); the web imports the inferred types;
 * apps/server/test/contracts.test.ts proves every API route has one and that the answers seen by
 * the integration suite parse against it.
 *
 * `data: 'file'` marks a download: a file response on success, the envelope on failure.
 */
export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  /** The JSON body; a missing body is read as `{}`. Unknown keys are stripped. */
  body?: z.ZodType;
  /** The query string (values are strings: use z.coerce for numbers). */
  query?: z.ZodType;
  /** Schema of the success envelope's `data`, or 'file' for a download. */
  data: z.ZodType | 'file';
  /**
   * A console endpoint (under /admin/): the staff permission it needs (staff-permissions.ts). The
   * server's staff routing reads it; every /admin/ endpoint but the login has one.
   */
  permission?: StaffPermission;
}

/** Identity helper: checks the shape and keeps each schema's own type (POST unless told). */
export function endpoint<const E extends Omit<Endpoint, 'method'> & { method?: Endpoint['method'] }>(
  definition: E,
): E & { method: Endpoint['method'] } {
  return { method: 'POST', ...definition };
}

/** What a caller sends in the body (before the server's transforms). */
export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;
/** What a caller sends in the query string. */
export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;
/** The success envelope's `data` as the web receives it. */
export type DataOf<E extends Endpoint> = E['data'] extends z.ZodType ? z.output<E['data']> : never;

/** `data: null` on success (the message is the point). */
export const nullData = z.null();

/** An ISO-8601 timestamp as the server writes it (Date#toISOString). */
export const isoDate = z.string();

/** A row id (uuid) with `message` for anything else: refused before it reaches a uuid column. */
export const uuidSchema = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: message });
