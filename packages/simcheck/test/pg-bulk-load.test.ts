/**
 * The PostgreSQL index's bulk load (an empty library loaded without the fingerprint indexes, built
 * at the end): lookups and reports identical to the local index during and after it, an
 * interrupted load resumed, and readers during a load never seeing part of a document. On PGlite
 * (unnest inserts) and, when DATABASE_URL is set, on that server (binary COPY, real concurrency).
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgIndexTables } from '../bench/lib/pg-tables.ts';
import {
  checkText,
  getIndexFingerprints,
  type Index,
  type LibraryDocument,
  openIndex,
} from '../src/index.ts';
import { createPgIndex, type PgIndex, type PgIndexOptions, type Queryable } from '../src/index-store/pg.ts';
import { LIBRARY, makeTempDir, OWN_SAME_TOPIC, SRC_ECONOMY, SRC_SOIL } from './fixtures.ts';

// 60 documents: pseudo-random text from a fixed set of characters, each with a passage of a
// fixture source, so that hashes have postings in several documents.
const CHARS = '研究方法数据分析结果表明系统模型实验土壤教育经济医学发展影响因素显著提高作用机制过程';
function makeLibrary(n: number): LibraryDocument[] {
  let seed = 20240601;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  return Array.from({ length: n }, (_, i) => {
    let text = '';
    for (let j = 0; j < 240; j++) text += CHARS[next() % CHARS.length];
    const source = LIBRARY[i % LIBRARY.length]!.text;
    return { id: `doc-${i}`, title: `文献 ${i}`, text: `${text}。${source.slice(0, 80 + (i % 5) * 10)}` };
  });
}
const DOCS = makeLibrary(60);
const THESIS = [SRC_SOIL, OWN_SAME_TOPIC, SRC_ECONOMY.slice(0, 70), DOCS[7]!.text.slice(0, 120)].join('\n');
const ALL_HASHES = Uint32Array.from(
  new Set(DOCS.flatMap((d) => [...getIndexFingerprints(d.text, { k: 5, minRun: 13 }).hashes])),
);

type Db = { open: (options?: PgIndexOptions) => Promise<PgIndex>; dispose: () => Promise<void> };
type Target = { name: string; concurrent: boolean; make: () => Promise<Db> };

const targets: Target[] = [
  {
    name: 'PGlite',
    concurrent: false,
    make: async () => {
      const db = new PGlite();
      await createPgIndexTables(db);
      return {
        open: (options) => createPgIndex(db as unknown as Queryable, options),
        dispose: () => db.close(),
      };
    },
  },
];
const serverUrl = process.env.DATABASE_URL;
if (serverUrl) {
  targets.push({
    name: 'PostgreSQL server (DATABASE_URL)',
    concurrent: true,
    make: async () => {
      const schema = `simcheck_bulk_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
      const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.query(`SET search_path TO ${schema}`);
      await createPgIndexTables(admin);
      await admin.query('RESET search_path');
      const pools: pg.Pool[] = [];
      return {
        open: (options) => {
          // Each index its own pool, as separate processes (an importer, a worker) would have.
          const pool = new pg.Pool({
            connectionString: serverUrl,
            max: 3,
            options: `-c search_path=${schema}`,
          });
          pools.push(pool);
          return createPgIndex(pool as unknown as Queryable, options);
        },
        dispose: async () => {
          for (const pool of pools) await pool.end();
          await admin.query(`DROP SCHEMA ${schema} CASCADE`);
          await admin.end();
        },
      };
    },
  });
}

async function indexState(index: PgIndex): Promise<{ indexes: number; marked: boolean }> {
  const db = (index as unknown as { db: Queryable }).db;
  const r = await db.query(
    `SELECT (to_regclass('simcheck_fingerprints_lookup_idx') IS NOT NULL)::int
          + (to_regclass('simcheck_fingerprints_doc_idx') IS NOT NULL)::int AS n,
            EXISTS (SELECT 1 FROM simcheck_meta WHERE key = 'bulk_load') AS marked`,
  );
  return { indexes: Number(r.rows[0]!.n), marked: r.rows[0]!.marked === true };
}

/** Every document's fingerprint count, by id. */
const expectedPostings = new Map(
  DOCS.map((d) => [d.id, getIndexFingerprints(d.text, { k: 5, minRun: 13 }).hashes.length]),
);

/** Checks that a lookup holds whole documents only: each document present with all its postings. */
async function wholeDocuments(reader: Index): Promise<number> {
  const postings = await reader.lookup(ALL_HASHES);
  const perDoc = new Map<number, number>();
  for (const d of postings.docNos) perDoc.set(d, (perDoc.get(d) ?? 0) + 1);
  const docs = await reader.getDocuments([...perDoc.keys()]);
  expect(docs.length).toBe(perDoc.size);
  for (const doc of docs) expect(perDoc.get(doc.docNo)).toBe(expectedPostings.get(doc.id));
  return docs.length;
}

describe.each(targets)('PostgreSQL bulk load on $name', ({ make, concurrent }) => {
  let dir: string;
  let local: Index;
  let db: Db;

  beforeAll(async () => {
    dir = makeTempDir('pg-bulk');
    local = await openIndex(dir, { create: true });
    await local.addDocuments(DOCS);
    expect(ALL_HASHES.length).toBeGreaterThan(1000);
  }, 60_000);
  beforeAll(async () => {
    db = await make();
  }, 60_000);

  afterAll(async () => {
    await local.close();
    await db.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads an empty library without the fingerprint indexes, then builds them: same lookups and reports as the local index', async () => {
    const index = await db.open({ batchDocuments: 7 });
    const schema = (index as unknown as { db: Queryable }).db;
    await schema.query('DELETE FROM simcheck_fingerprints');
    await schema.query('DELETE FROM simcheck_documents');
    await schema.query('ALTER SEQUENCE simcheck_doc_no_seq RESTART');
    expect(await indexState(index)).toEqual({ indexes: 2, marked: false });
    expect(await index.beginBulkLoad()).toBe(true);
    expect(await indexState(index)).toEqual({ indexes: 0, marked: true });
    // Several calls, as the service's import makes (one per batch of its own).
    await index.addDocuments(DOCS.slice(0, 25));
    await index.addDocuments(DOCS.slice(25));
    // Still without indexes: the same results, from sequential scans.
    expect(await indexState(index)).toEqual({ indexes: 0, marked: true });
    expect(await index.lookup(ALL_HASHES)).toEqual(await local.lookup(ALL_HASHES));
    await index.finishBulkLoad();
    expect(await indexState(index)).toEqual({ indexes: 2, marked: false });
    expect(await index.lookup(ALL_HASHES, { maxPostings: 2 })).toEqual(
      await local.lookup(ALL_HASHES, { maxPostings: 2 }),
    );
    expect(await checkText(index, THESIS)).toEqual(await checkText(local, THESIS));
    expect((await index.stats()).fingerprints).toBe((await local.stats()).fingerprints);
    // Not empty any more: no bulk load, and the indexes stay.
    expect(await index.beginBulkLoad()).toBe(false);
    expect(await indexState(index)).toEqual({ indexes: 2, marked: false });
    // Incremental adds and removal keep matching the local index.
    await index.addDocuments([{ id: 'extra', title: null, text: OWN_SAME_TOPIC }]);
    await local.addDocuments([{ id: 'extra', title: null, text: OWN_SAME_TOPIC }]);
    expect(await index.removeDocument('doc-3')).toBe(true);
    expect(await local.removeDocument('doc-3')).toBe(true);
    expect(await checkText(index, THESIS)).toEqual(await checkText(local, THESIS));
    expect(await index.lookup(ALL_HASHES)).toEqual(await local.lookup(ALL_HASHES));
    await local.addDocuments([DOCS[3]!]);
    await local.removeDocument('extra');
    await index.close();
  }, 60_000);

  it('resumes an interrupted bulk load; opening the index meanwhile does not build the indexes', async () => {
    const first = await db.open({ batchDocuments: 10 });
    const q = (first as unknown as { db: Queryable }).db;
    await q.query('DELETE FROM simcheck_fingerprints');
    await q.query('DELETE FROM simcheck_documents');
    await q.query('ALTER SEQUENCE simcheck_doc_no_seq RESTART');
    expect(await first.beginBulkLoad()).toBe(true);
    // The importer dies after 20 documents and in the middle of its third batch.
    async function* dying() {
      for (const d of DOCS.slice(0, 25)) yield d;
      throw new Error('killed');
    }
    await expect(first.addDocuments(dying())).rejects.toThrow('killed');
    await first.close(); // its lock goes with its connection; the mark stays
    const opened = await db.open();
    expect(await indexState(opened)).toEqual({ indexes: 0, marked: true });
    expect((await opened.stats()).documents).toBe(20);
    expect(await wholeDocuments(opened)).toBe(20);
    // The rerun: resumes the bulk load, adds what is missing (one already there again, replaced).
    const second = await db.open({ batchDocuments: 10 });
    expect(await second.beginBulkLoad()).toBe(true);
    const result = await second.addDocuments(DOCS.slice(19));
    expect(result).toMatchObject({ added: 40, replaced: 1 });
    await second.finishBulkLoad();
    expect(await indexState(second)).toEqual({ indexes: 2, marked: false });
    // Document numbers differ from the local index's (doc-19 was replaced), the reports do not.
    expect(await checkText(second, THESIS)).toEqual(await checkText(local, THESIS));
    expect(await wholeDocuments(second)).toBe(60);
    await second.close();
    await opened.close();
  }, 60_000);

  it('an interrupted addDocuments that started the bulk load itself still leaves its indexes built', async () => {
    const index = await db.open({ batchDocuments: 10 });
    const q = (index as unknown as { db: Queryable }).db;
    await q.query('DELETE FROM simcheck_fingerprints');
    await q.query('DELETE FROM simcheck_documents');
    async function* dying() {
      for (const d of DOCS.slice(0, 15)) yield d;
      throw new Error('bad input');
    }
    await expect(index.addDocuments(dying())).rejects.toThrow('bad input');
    expect(await indexState(index)).toEqual({ indexes: 2, marked: false });
    expect(await wholeDocuments(index)).toBe(10);
    await index.close();
  }, 60_000);

  it('readers during a bulk load see whole documents only, and a report of the documents committed so far', async () => {
    const writer = await db.open({ batchDocuments: 6 });
    const reader = await db.open();
    const q = (writer as unknown as { db: Queryable }).db;
    await q.query('DELETE FROM simcheck_fingerprints');
    await q.query('DELETE FROM simcheck_documents');
    await q.query('ALTER SEQUENCE simcheck_doc_no_seq RESTART');
    const seen: number[] = [];
    let reads = 0;
    async function* docs() {
      for (const [i, d] of DOCS.entries()) {
        // Between batches (the previous one committed): the reader sees exactly those documents.
        if (i % 6 === 0) seen.push(await wholeDocuments(reader));
        yield d;
      }
    }
    let done = false;
    const add = writer.addDocuments(docs()).finally(() => {
      done = true;
    });
    // And meanwhile, on a server, lookups at any moment (PGlite runs one query at a time).
    const concurrentReads = (async () => {
      while (concurrent && !done) {
        await wholeDocuments(reader);
        reads++;
      }
    })();
    await add;
    await concurrentReads;
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => i * 6));
    if (concurrent) expect(reads).toBeGreaterThan(0);
    expect(await indexState(reader)).toEqual({ indexes: 2, marked: false });
    expect(await checkText(reader, THESIS)).toEqual(await checkText(local, THESIS));
    await reader.close();
    await writer.close();
  }, 60_000);

  it('the migration upgrades a library indexed by an earlier version (an index on hash alone): it builds the lookup index, drops the old one and keeps the rows', async () => {
    const index = await db.open();
    const q = (index as unknown as { db: Queryable }).db;
    const lookups = await index.lookup(ALL_HASHES, { maxPostings: 2 });
    const report = await checkText(index, THESIS);
    // the state an earlier version left: its index on hash, no lookup index
    await q.query('DROP INDEX simcheck_fingerprints_lookup_idx');
    await q.query('CREATE INDEX simcheck_fingerprints_hash_idx ON simcheck_fingerprints (hash)');
    await index.close();
    // packages/db's migration 0012 over those tables (idempotent: the tables stay as they are)
    await createPgIndexTables(q);
    const reopened = await db.open();
    const r = (reopened as unknown as { db: Queryable }).db;
    const names = await r.query(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'simcheck_fingerprints' AND schemaname = current_schema() ORDER BY 1`,
    );
    expect(names.rows.map((x) => x.indexname)).toEqual([
      'simcheck_fingerprints_doc_idx',
      'simcheck_fingerprints_lookup_idx',
    ]);
    expect(await reopened.lookup(ALL_HASHES, { maxPostings: 2 })).toEqual(lookups);
    expect(await checkText(reopened, THESIS)).toEqual(report);
    await reopened.close();
  }, 60_000);
});
