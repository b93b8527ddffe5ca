/**
 * The PostgreSQL index (scaled mode: many workers, one index), the subpath `@kyfw/simcheck/pg`: the
 * only part of the engine that loads a database driver (with pg-load.ts, its fingerprint writes).
 * Runs on a PostgreSQL server through `pg` and in-process on PGlite; both speak the same SQL.
 *
 * Tables (created by packages/db's migration 0012_simcheck_index.sql, not here; opening an index in
 * a database without them fails with `database_error`):
 *   simcheck_meta          key/value: the fingerprint parameters the index was built with
 *   simcheck_documents     doc_no (from a sequence, never reused), id (unique), title, text, chars
 *   simcheck_fingerprints  (hash bigint, doc_no bigint, pos integer), indexed on (hash, doc_no,
 *                          pos) (candidate lookup: index-only scans, one per hash) and on doc_no
 *                          (removal). No foreign key:
 *                          a per-row check would dominate bulk loading; rows of a document are
 *                          deleted together with it, in one transaction.
 * Writes: 500 documents per transaction; fingerprint rows through binary `COPY ... FROM STDIN` on a
 * `pg` connection, multi-row `INSERT ... SELECT FROM unnest($1::bigint[], ...)` on PGlite. Into an
 * empty library, a bulk load (`beginBulkLoad`/`finishBulkLoad`): the two fingerprint indexes are
 * dropped and built once at the end (see the README's PostgreSQL section).
 */
import { SimcheckError } from '../core/errors.ts';
import { defaultOptions } from '../core/options.ts';
import type {
  AddProgress,
  AddResult,
  Index,
  IndexParams,
  IndexStats,
  LibraryDocument,
  LookupOptions,
  Postings,
  StoredDocument,
} from '../core/types.ts';
import { canCopy, copyFingerprints, insertFingerprints } from './pg-load.ts';

/** What the backend needs from a connection: `pg.Pool`, `pg.Client` and PGlite all fit. */
export type Queryable = {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
};
type PoolLike = Queryable & { connect(): Promise<Queryable & { release(): void }> };

const TABLES = ['simcheck_meta', 'simcheck_doc_no_seq', 'simcheck_documents', 'simcheck_fingerprints'];

/**
 * The secondary indexes of `simcheck_fingerprints` as migration 0012 creates them; a bulk load drops
 * them and builds them again at its end. The lookup index
 * holds whole rows, so a check's lookup reads index pages only (an index-only scan per hash, in
 * (docNo, position) order) instead of one heap page per posting: at 200,000 documents the lookup
 * of a thesis went from 2.7 s to 0.25 s, for an index 2.5× the size of one on `hash` alone.
 */
const FP_INDEXES = [
  { name: 'simcheck_fingerprints_lookup_idx', column: 'hash, doc_no, pos' },
  { name: 'simcheck_fingerprints_doc_idx', column: 'doc_no' },
] as const;
/** The index on `hash` alone of earlier versions (migration 0012 drops it; so does a bulk load). */
const LEGACY_HASH_INDEX = 'simcheck_fingerprints_hash_idx';

/**
 * The session advisory lock a bulk load holds: one per `simcheck_fingerprints` table (so per
 * schema), in a key range of its own (high half 0x5c0b1c00).
 */
const BULK_LOCK_KEY = `((x'5c0b1c00'::bigint << 32) | 'simcheck_fingerprints'::regclass::oid::bigint)`;
/** maintenance_work_mem (at least) for building the indexes at the end of a bulk load. */
const BULK_INDEX_MEMORY = '256MB';

const DOC_BATCH = 500;

function isPool(db: Queryable): db is PoolLike {
  return typeof (db as Partial<PoolLike>).connect === 'function' && 'totalCount' in db;
}

export type PgIndexOptions = {
  /** Fingerprint parameters for a new index (defaults from `defaultOptions`). */
  readonly params?: Partial<IndexParams>;
  /** Documents per write transaction of `addDocuments` (default 500). */
  readonly batchDocuments?: number;
  /**
   * Told when an idle pooled connection fails (only for a pool this index opens from a URL);
   * default: one line on stderr. The pool replaces the connection either way.
   */
  readonly onPoolError?: (error: Error) => void;
};

export class PgIndex implements Index {
  readonly backend = 'postgres' as const;
  readonly params: IndexParams;
  private readonly db: Queryable;
  private readonly ownsPool: boolean;
  /** The connection holding the bulk-load lock, while this instance owns a bulk load. */
  private bulk: { session: Queryable; client: (Queryable & { release(): void }) | undefined } | undefined;

  private readonly batchDocuments: number;

  constructor(db: Queryable, params: IndexParams, ownsPool: boolean, batchDocuments = DOC_BATCH) {
    this.db = db;
    this.params = params;
    this.ownsPool = ownsPool;
    this.batchDocuments = batchDocuments;
  }

  private async inTransaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = isPool(this.db) ? await this.db.connect() : undefined;
    const q: Queryable = client ?? this.db;
    try {
      await q.query('BEGIN');
      const result = await fn(q);
      await q.query('COMMIT');
      return result;
    } catch (error) {
      await q.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client?.release();
    }
  }

  async addDocuments(
    docs: Iterable<LibraryDocument> | AsyncIterable<LibraryDocument>,
    options: { onProgress?: (p: AddProgress) => void } = {},
  ): Promise<AddResult> {
    // An empty library (or an abandoned bulk load) is loaded without the fingerprint indexes,
    // which are built once at the end; when another bulk load is running, its owner builds them.
    const bulk = this.bulk ? undefined : await this.beginBulkLoad();
    let result: AddResult;
    try {
      result = await this.addDocumentsInBatches(docs, options);
    } catch (error) {
      // Leave the library usable: build the indexes over what was committed (best effort; when
      // this fails too the next add or `beginBulkLoad` resumes and finishes the bulk load).
      if (bulk) await this.finishBulkLoad().catch(() => this.releaseBulkSession(true));
      throw error;
    }
    if (bulk) await this.finishBulkLoad();
    return result;
  }

  private async addDocumentsInBatches(
    docs: Iterable<LibraryDocument> | AsyncIterable<LibraryDocument>,
    options: { onProgress?: (p: AddProgress) => void },
  ): Promise<AddResult> {
    let added = 0;
    let replaced = 0;
    let skipped = 0;
    let characters = 0;
    let batch: LibraryDocument[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      // Last one wins inside a batch too.
      const unique = new Map<string, LibraryDocument>();
      for (const d of batch) {
        if (unique.has(d.id)) replaced++;
        unique.set(d.id, d);
      }
      const list = [...unique.values()];
      batch = [];
      await this.inTransaction(async (q) => {
        const existing = await q.query(
          'DELETE FROM simcheck_documents WHERE id = ANY($1::text[]) RETURNING doc_no',
          [list.map((d) => d.id)],
        );
        if (existing.rows.length > 0) {
          await q.query('DELETE FROM simcheck_fingerprints WHERE doc_no = ANY($1::bigint[])', [
            existing.rows.map((r) => Number(r.doc_no)),
          ]);
        }
        replaced += existing.rows.length;
        const seq = await q.query(
          `SELECT nextval('simcheck_doc_no_seq') AS n FROM generate_series(1, $1::int) ORDER BY 1`,
          [list.length],
        );
        const docNos = seq.rows.map((r) => Number(r.n)).sort((a, b) => a - b);
        // Fingerprints first (computed document by document while the server takes the previous
        // ones in), then the documents with their character counts; one transaction.
        const chars = canCopy(q)
          ? await copyFingerprints(q, list, docNos, this.params)
          : await insertFingerprints(q, list, docNos, this.params);
        await q.query(
          `INSERT INTO simcheck_documents (doc_no, id, title, text, chars)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[])`,
          [docNos, list.map((d) => d.id), list.map((d) => d.title ?? null), list.map((d) => d.text), chars],
        );
        for (const c of chars) characters += c;
      });
      options.onProgress?.({ documents: added, characters });
    };
    for await (const doc of docs) {
      if (!doc || typeof doc.id !== 'string' || typeof doc.text !== 'string') {
        skipped++;
        continue;
      }
      batch.push(doc);
      added++;
      if (batch.length >= this.batchDocuments) await flush();
    }
    await flush();
    return { added: added - replaced, replaced, skipped };
  }

  /**
   * Bulk mode for the initial import of a library: when the library is empty (or an earlier bulk
   * load was interrupted), the two B-tree indexes of `simcheck_fingerprints` are dropped, rows go
   * in without them, and `finishBulkLoad` builds them with `CREATE INDEX` (a sort instead of
   * millions of random index insertions). Marked in `simcheck_meta` (key `bulk_load`) so that
   * opening the index does not re-create them meanwhile, and held by a session advisory lock so
   * that an interrupted load (lock gone with its connection) is told from a running one.
   *
   * Every write stays in the same per-batch transactions as always, so readers see whole
   * documents or none; without the indexes their lookups are sequential scans (same results,
   * slower). Use it around a multi-call import (the service's `library:import` does);
   * `addDocuments` on an empty library does it by itself.
   *
   * @returns true when this instance now owns a bulk load (call `finishBulkLoad`); false when the
   *   library is not empty, or another process's bulk load is running (its owner finishes it).
   */
  async beginBulkLoad(): Promise<boolean> {
    if (this.bulk) return true;
    const client = isPool(this.db) ? await this.db.connect() : undefined;
    const session: Queryable = client ?? this.db;
    let owned = false;
    try {
      const lock = await session.query(`SELECT pg_try_advisory_lock(${BULK_LOCK_KEY}) AS ok`);
      if (lock.rows[0]?.ok !== true) return false;
      owned = true;
      await session.query('BEGIN');
      try {
        await session.query('LOCK TABLE simcheck_meta IN SHARE ROW EXCLUSIVE MODE');
        const marked = await session.query(`SELECT 1 FROM simcheck_meta WHERE key = 'bulk_load'`);
        let bulk = marked.rows.length > 0;
        if (!bulk) {
          const any = await session.query(
            `SELECT EXISTS (SELECT 1 FROM simcheck_documents) OR EXISTS (SELECT 1 FROM simcheck_fingerprints) AS any`,
          );
          if (any.rows[0]?.any !== true) {
            await session.query(`INSERT INTO simcheck_meta (key, value) VALUES ('bulk_load', $1)`, [
              JSON.stringify({ startedAt: new Date().toISOString() }),
            ]);
            bulk = true;
          }
        }
        // Also when resuming: the migration may have built the indexes over the part loaded so far.
        if (bulk) {
          for (const { name } of FP_INDEXES) await session.query(`DROP INDEX IF EXISTS ${name}`);
          await session.query(`DROP INDEX IF EXISTS ${LEGACY_HASH_INDEX}`);
        }
        await session.query('COMMIT');
        if (!bulk) return false;
      } catch (error) {
        await session.query('ROLLBACK').catch(() => {});
        throw error;
      }
      this.bulk = { session, client };
      return true;
    } finally {
      if (!this.bulk) {
        if (owned) await session.query(`SELECT pg_advisory_unlock(${BULK_LOCK_KEY})`).catch(() => {});
        client?.release();
      }
    }
  }

  /**
   * Ends the bulk load this instance owns: builds the fingerprint indexes (plain `CREATE INDEX`,
   * in one transaction with clearing the mark: readers go on meanwhile, writers wait for it) and
   * updates the planner statistics. Nothing when no bulk load is owned.
   */
  async finishBulkLoad(): Promise<void> {
    const bulk = this.bulk;
    if (!bulk) return;
    const s = bulk.session;
    await s.query('BEGIN');
    try {
      const mem = await s.query(
        `SELECT pg_size_bytes(current_setting('maintenance_work_mem')) < pg_size_bytes('${BULK_INDEX_MEMORY}') AS raise`,
      );
      if (mem.rows[0]?.raise === true)
        await s.query(`SET LOCAL maintenance_work_mem = '${BULK_INDEX_MEMORY}'`);
      await s.query('LOCK TABLE simcheck_meta IN SHARE ROW EXCLUSIVE MODE');
      await createFingerprintIndexes(s);
      await s.query(`DELETE FROM simcheck_meta WHERE key = 'bulk_load'`);
      await s.query('COMMIT');
    } catch (error) {
      await s.query('ROLLBACK').catch(() => {});
      throw error;
    }
    // VACUUM sets the visibility map of the freshly loaded pages: without it the lookup's index-only
    // scans would still visit the table for every posting (until autovacuum got there).
    await s.query('VACUUM (ANALYZE) simcheck_fingerprints');
    await this.releaseBulkSession(false);
  }

  private async releaseBulkSession(broken: boolean): Promise<void> {
    const bulk = this.bulk;
    if (!bulk) return;
    this.bulk = undefined;
    if (!broken) await bulk.session.query(`SELECT pg_advisory_unlock(${BULK_LOCK_KEY})`).catch(() => {});
    // A broken connection is discarded (which also drops its advisory lock).
    (bulk.client as { release(err?: boolean): void } | undefined)?.release(broken);
  }

  async removeDocument(id: string): Promise<boolean> {
    return this.inTransaction(async (q) => {
      const res = await q.query('DELETE FROM simcheck_documents WHERE id = $1 RETURNING doc_no', [id]);
      if (res.rows.length === 0) return false;
      await q.query('DELETE FROM simcheck_fingerprints WHERE doc_no = $1', [Number(res.rows[0]!.doc_no)]);
      return true;
    });
  }

  async stats(): Promise<IndexStats> {
    const d = await this.db.query(
      'SELECT count(*) AS n, coalesce(sum(chars), 0) AS c FROM simcheck_documents',
    );
    const f = await this.db.query('SELECT count(*) AS n FROM simcheck_fingerprints');
    return {
      documents: Number(d.rows[0]!.n),
      fingerprints: Number(f.rows[0]!.n),
      characters: Number(d.rows[0]!.c),
      removed: 0,
      params: this.params,
      details: {},
    };
  }

  /**
   * One query, one row per hash: its number of postings and its postings as two arrays (document
   * numbers and positions, in docNo then position order), so that tens of thousands of postings do
   * not become tens of thousands of row objects. Each hash is one index-only scan of the lookup
   * index (a nested loop over the hashes: the planner's estimate for `hash = ANY(…)` with tens of
   * thousands of hashes chose a sequential scan of the whole table). Counts are over all of a
   * hash's postings, as in the local index; a frequent hash's postings are not fetched; `docNos`
   * only filters what comes back (an index condition).
   */
  async lookup(hashes: Uint32Array, options: LookupOptions = {}): Promise<Postings> {
    const { maxPostings, docNos } = options;
    const unique = Array.from(new Set(hashes)).sort((a, b) => a - b);
    const params: unknown[] = [unique];
    const onlyDocs = docNos ? `AND f.doc_no = ANY($${params.push([...docNos])}::bigint[])` : '';
    const postings = `SELECT array_agg(f.doc_no::int4 ORDER BY f.doc_no, f.pos) AS d,
                             array_agg(f.pos ORDER BY f.doc_no, f.pos) AS p
                        FROM simcheck_fingerprints f WHERE f.hash = h.hash ${onlyDocs}`;
    const sql =
      maxPostings === undefined
        ? `SELECT h.hash, NULL::int AS n, x.d, x.p
             FROM unnest($1::bigint[]) AS h(hash) CROSS JOIN LATERAL (${postings}) x
            WHERE x.d IS NOT NULL ORDER BY h.hash`
        : `SELECT h.hash, c.n, x.d, x.p
             FROM unnest($1::bigint[]) AS h(hash)
             CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM simcheck_fingerprints f
                                  WHERE f.hash = h.hash) c
             LEFT JOIN LATERAL (${postings}) x ON c.n <= $${params.push(maxPostings)}
            WHERE c.n > 0 ORDER BY h.hash`;
    const res = await this.db.query(sql, params);
    const frequent: number[] = [];
    const kept: { hash: number; d: number[]; p: number[] }[] = [];
    let size = 0;
    for (const r of res.rows) {
      const hash = Number(r.hash);
      if (maxPostings !== undefined && Number(r.n) > maxPostings) {
        frequent.push(hash);
        continue;
      }
      const d = (r.d as number[] | null) ?? [];
      if (d.length === 0) continue;
      kept.push({ hash, d, p: r.p as number[] });
      size += d.length;
    }
    const out = {
      hashes: new Uint32Array(size),
      docNos: new Uint32Array(size),
      positions: new Uint32Array(size),
    };
    let n = 0;
    for (const k of kept) {
      out.hashes.fill(k.hash, n, n + k.d.length);
      out.docNos.set(k.d, n);
      out.positions.set(k.p, n);
      n += k.d.length;
    }
    return maxPostings !== undefined ? { ...out, frequent: Uint32Array.from(frequent) } : out;
  }

  async getDocuments(docNos: readonly number[]): Promise<StoredDocument[]> {
    if (docNos.length === 0) return [];
    const res = await this.db.query(
      'SELECT doc_no, id, title, text FROM simcheck_documents WHERE doc_no = ANY($1::bigint[])',
      [docNos],
    );
    const byNo = new Map<number, StoredDocument>();
    for (const r of res.rows) {
      const docNo = Number(r.doc_no);
      byNo.set(docNo, {
        docNo,
        id: String(r.id),
        title: (r.title as string | null) ?? null,
        text: String(r.text),
      });
    }
    return docNos.flatMap((d) => byNo.get(d) ?? []);
  }

  /** Closes the pool it made. A bulk load still owned is left for a later one to resume. */
  async close(): Promise<void> {
    await this.releaseBulkSession(false);
    if (this.ownsPool) await (this.db as unknown as { end(): Promise<void> }).end();
  }
}

async function createFingerprintIndexes(q: Queryable): Promise<void> {
  for (const { name, column } of FP_INDEXES)
    await q.query(`CREATE INDEX IF NOT EXISTS ${name} ON simcheck_fingerprints (${column})`);
  await q.query(`DROP INDEX IF EXISTS ${LEGACY_HASH_INDEX}`);
}

async function prepare(db: Queryable, options: PgIndexOptions): Promise<IndexParams> {
  const found = await db.query(
    `SELECT name FROM unnest($1::text[]) AS t(name) WHERE to_regclass(name) IS NULL`,
    [TABLES],
  );
  if (found.rows.length > 0) {
    const missing = found.rows.map((r) => String(r.name)).join('、');
    throw new SimcheckError(
      'database_error',
      `数据库中没有比对库的表（${missing}）：请先执行数据库迁移（packages/db，0012_simcheck_index.sql）`,
    );
  }
  const want: IndexParams = {
    k: options.params?.k ?? defaultOptions.k,
    minRun: options.params?.minRun ?? defaultOptions.minRun,
  };
  await db.query(
    `INSERT INTO simcheck_meta (key, value) VALUES ('params', $1) ON CONFLICT (key) DO NOTHING`,
    [JSON.stringify(want)],
  );
  const res = await db.query(`SELECT value FROM simcheck_meta WHERE key = 'params'`);
  const params = JSON.parse(String(res.rows[0]!.value)) as IndexParams;
  if (options.params && (params.k !== want.k || params.minRun !== want.minRun)) {
    throw new SimcheckError('index_params_mismatch', '数据库中索引的指纹参数与要求的不一致');
  }
  return params;
}

/**
 * Open the PostgreSQL index in a database migrated by packages/db (its tables must exist).
 * @param target a connection string (a `pg.Pool` is created and closed by `close()`), or an existing
 *   pool, client or PGlite instance (left open by `close()`).
 * @throws SimcheckError `database_error` when the database cannot be reached or lacks the tables.
 */
export async function createPgIndex(
  target: string | Queryable,
  options: PgIndexOptions = {},
): Promise<PgIndex> {
  let db: Queryable;
  let owns = false;
  if (typeof target === 'string') {
    const pg = await import('pg');
    const Pool = pg.default.Pool;
    const pool = new Pool({ connectionString: target, max: 4 });
    // An idle client whose server connection drops (a restart, an administrator's terminate) emits
    // 'error' on the pool; unhandled it would end the process. pg discards that client and the next
    // query opens a new connection.
    pool.on(
      'error',
      options.onPoolError ?? ((error) => console.error('[simcheck] idle client error:', error.message)),
    );
    db = pool as unknown as Queryable;
    owns = true;
  } else db = target;
  try {
    const params = await prepare(db, options);
    return new PgIndex(db, params, owns, options.batchDocuments);
  } catch (error) {
    if (owns) await (db as unknown as { end(): Promise<void> }).end().catch(() => {});
    if (error instanceof SimcheckError) throw error;
    throw new SimcheckError('database_error', `无法打开数据库索引：${(error as Error).message}`, {
      cause: error,
    });
  }
}
