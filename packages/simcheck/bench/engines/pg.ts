/**
 * The real engine on its PostgreSQL backend (`createPgIndex` from `@kyfw/simcheck/pg`),
 * in-process like `simcheck`: same library API, same check options, another index store.
 *
 * The benchmark prepares each "index directory" before the build (bench/lib/pg.ts): it creates a
 * schema of its own on the server and writes `pg-target.json` ({url, schema}) there; the URL sets
 * `search_path` to that schema, and the engine opens it as the service and the CLI do,
 * `createPgIndex(url)` (a pool of 4 connections).
 */
import { createPgIndex } from '../../src/index-store/pg.ts';
import { readPgTarget } from '../lib/pg.ts';
import { indexChecker, records } from './library.ts';
import type { BenchEngine, Checker } from './types.ts';

export const pgEngine: BenchEngine = {
  name: 'simcheck-pg',
  async build(libraryPath, indexDir) {
    const index = await createPgIndex(readPgTarget(indexDir).url);
    try {
      await index.addDocuments(records(libraryPath));
    } finally {
      await index.close();
    }
  },
  async open(indexDir): Promise<Checker> {
    return indexChecker(await createPgIndex(readPgTarget(indexDir).url));
  },
};
