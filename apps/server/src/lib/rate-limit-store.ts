import type { Database, Kysely } from '@kyfw/db';
import { sql } from '@kyfw/db';

/** What @fastify/rate-limit hands a store: its merged options, with the route under `routeInfo`. */
type StoreOptions = { routeInfo?: { method?: string | string[]; url?: string } };

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Rows of windows older than this are deleted now and then (the longest window is minutes). */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** About one increment in this many also deletes old rows. */
const PRUNE_EVERY = 500;

/**
 * A @fastify/rate-limit store in the database, for the scaled mode: every API process counts in
 * the same rows, so N processes allow the limit once, not N times (the login throttle is kept in
 * the database for the same reason). A window starts with a client's first hit after the last
 * window ended (as the in-memory store); one atomic upsert per request. Buckets are `<route>|<client key>`: each limited route counts on its own.
 */
export function databaseRateLimitStore(db: Kysely<Database>) {
  return class DatabaseRateLimitStore {
    private readonly scope: string;

    constructor(options: object = {}) {
      const route = (options as StoreOptions).routeInfo;
      this.scope = route?.url ? `${[route.method].flat().join(',')} ${route.url}` : 'global';
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = new Date();
      const expiredBefore = new Date(now.getTime() - timeWindow);
      // A new window starts with the first hit after the last one ended (as the in-memory store).
      const expired = sql<boolean>`rate_limit_hits.window_start <= ${expiredBefore}`;
      db.insertInto('rate_limit_hits')
        .values({ bucket: `${this.scope}|${key}`, window_start: now, hits: 1 })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            hits: sql<number>`case when ${expired} then 1 else rate_limit_hits.hits + 1 end`,
            window_start: sql<Date>`case when ${expired} then ${now} else rate_limit_hits.window_start end`,
          }),
        )
        .returning(['hits', 'window_start'])
        .executeTakeFirstOrThrow()
        .then((row) => {
          const ttl = new Date(row.window_start).getTime() + timeWindow - now.getTime();
          callback(null, { current: Number(row.hits), ttl });
          if (Math.random() * PRUNE_EVERY < 1) {
            db.deleteFrom('rate_limit_hits')
              .where('window_start', '<', new Date(now.getTime() - KEEP_MS))
              .execute()
              .catch(() => {});
          }
        }, callback);
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      db.selectFrom('rate_limit_hits')
        .select(['hits', 'window_start'])
        .where('bucket', '=', `${this.scope}|${key}`)
        .executeTakeFirst()
        .then((row) => {
          const ttl = row ? new Date(row.window_start).getTime() + timeWindow - now : 0;
          callback(null, row && ttl > 0 ? { current: Number(row.hits), ttl } : { current: 0, ttl: 0 });
        }, callback);
    }

    child(options: object) {
      return new DatabaseRateLimitStore(options);
    }
  };
}
