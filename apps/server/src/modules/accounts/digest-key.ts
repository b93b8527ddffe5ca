import type { Database, Kysely } from '@kyfw/db';
import { loadConfig } from '../../config.ts';
import { loadDigestKey } from './secrets.ts';

/**
 * The identifier-digest key (secrets.ts loadDigestKey) per database. The accounts module registers
 * the key of its configuration when the app starts; a job handler in a worker process without the
 * app (`npm run worker`) loads it from the environment once.
 */
const keys = new WeakMap<Kysely<Database>, string>();

export function registerDigestKey(db: Kysely<Database>, key: string): void {
  keys.set(db, key);
}

/** The key for `db`: the app's, or this process's configuration's. */
export function digestKeyFor(db: Kysely<Database>): string {
  const found = keys.get(db);
  if (found) return found;
  const config = loadConfig();
  const key = loadDigestKey({
    configured: config.accounts.digestSecret,
    dataDir: config.dataDir,
    nodeEnv: config.nodeEnv,
    databaseUrl: config.databaseUrl,
  });
  keys.set(db, key);
  return key;
}
