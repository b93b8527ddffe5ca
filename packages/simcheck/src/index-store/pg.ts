/**
 * The PostgreSQL index (scaled mode: many workers, one index). Runs on a PostgreSQL server through
 * `pg` and in-process on PGlite; both speak the same SQL.
 *
 * Tables (created when missing):
 *   simcheck_meta          key/value: the fingerprint parameters the index was built with
 *   simcheck_documents     doc_no (from a sequence, never reused), id (unique), title, text, chars
 *   simcheck_fingerprints  (hash bigint, doc_no bigint, pos integer), indexed on hash (candidate
 *                          lookup with `hash = ANY($1)`) and on doc_no (removal). No foreign key:
 *                          a per-row check would dominate bulk loading; rows of a document are
 *                          deleted together with it, in one transaction.
 * Inserts are batched as multi-row `INSERT ... SELECT FROM unnest($1::bigint[], ...)`.
 */
import { getIndexFingerprints } from '../core/document.ts';
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

/** What the backend needs from a connection: `pg.Pool`, `pg.Client` and PGlite all fit. */
export type Queryable = {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
};
type PoolLike = Queryable & { connect(): Promise<Queryable & { release(): void }> };

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS simcheck_meta (key text PRIMARY KEY, value text NOT NULL)`,
  `CREATE SEQUENCE IF NOT EXISTS simcheck_doc_no_seq`,
  `CREATE TABLE IF NOT EXISTS simcheck_documents (
     doc_no bigint PRIMARY KEY,
     id text NOT NULL UNIQUE,
     title text,
     text text NOT NULL,
     chars integer NOT NULL CHECK (chars >= 0),
     added_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS simcheck_fingerprints (
     hash bigint NOT NULL,
     doc_no bigint NOT NULL,
     pos integer NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS simcheck_fingerprints_hash_idx ON simcheck_fingerprints (hash)`,
  `CREATE INDEX IF NOT EXISTS simcheck_fingerprints_doc_idx ON simcheck_fingerprints (doc_no)`,
];

const DOC_BATCH = 500;
const FP_BATCH = 50_000;

function isPool(db: Queryable): db is PoolLike {
  return typeof (db as Partial<PoolLike>).connect === 'function' && 'totalCount' in db;
}

export type PgIndexOptions = {
  /** Fingerprint parameters for a new index (defaults from `defaultOptions`). */
  readonly params?: Partial<IndexParams>;
};

export class PgIndex implements Index {
  readonly backend = 'postgres' as const;
  readonly params: IndexParams;
  private readonly db: Queryable;
  private readonly ownsPool: boolean;

  constructor(db: Queryable, params: IndexParams, ownsPool: boolean) {
    this.db = db;
    this.params = params;
    this.ownsPool = ownsPool;
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
        const fps = list.map((d) => getIndexFingerprints(d.text, this.params));
        await q.query(
          `INSERT INTO simcheck_documents (doc_no, id, title, text, chars)
           SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[])`,
          [
            docNos,
            list.map((d) => d.id),
            list.map((d) => d.title ?? null),
            list.map((d) => d.text),
            fps.map((f) => f.chars),
          ],
        );
        let hashes: number[] = [];
        let nos: number[] = [];
        let poss: number[] = [];
        const insert = async () => {
          if (hashes.length === 0) return;
          await q.query(
            'INSERT INTO simcheck_fingerprints (hash, doc_no, pos) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[])',
            [hashes, nos, poss],
          );
          hashes = [];
          nos = [];
          poss = [];
        };
        for (let i = 0; i < list.length; i++) {
          const f = fps[i]!;
          characters += f.chars;
          for (let j = 0; j < f.hashes.length; j++) {
            hashes.push(f.hashes[j]!);
            nos.push(docNos[i]!);
            poss.push(f.positions[j]!);
          }
          if (hashes.length >= FP_BATCH) await insert();
        }
        await insert();
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
      if (batch.length >= DOC_BATCH) await flush();
    }
    await flush();
    return { added: added - replaced, replaced, skipped };
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
   * not become tens of thousands of row objects. Counts are over all of a hash's postings, as in
   * the local index; `docNos` only filters what comes back.
   */
  async lookup(hashes: Uint32Array, options: LookupOptions = {}): Promise<Postings> {
    const { maxPostings, docNos } = options;
    const params: unknown[] = [Array.from(hashes)];
    const only = docNos ? `FILTER (WHERE doc_no = ANY($${params.push([...docNos])}::bigint[]))` : '';
    const res = await this.db.query(
      `SELECT hash, count(*)::int AS n,
              array_agg(doc_no::int4 ORDER BY doc_no, pos) ${only} AS d,
              array_agg(pos ORDER BY doc_no, pos) ${only} AS p
         FROM simcheck_fingerprints WHERE hash = ANY($1::bigint[])
        GROUP BY hash ORDER BY hash`,
      params,
    );
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

  async close(): Promise<void> {
    if (this.ownsPool) await (this.db as unknown as { end(): Promise<void> }).end();
  }
}

async function prepare(db: Queryable, options: PgIndexOptions): Promise<IndexParams> {
  for (const sql of SCHEMA) await db.query(sql);
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
 * Open (creating tables when missing) the PostgreSQL index.
 * @param target a connection string (a `pg.Pool` is created and closed by `close()`), or an existing
 *   pool, client or PGlite instance (left open by `close()`).
 * @throws SimcheckError `database_error` when the database cannot be reached or prepared.
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
    db = new Pool({ connectionString: target, max: 4 }) as unknown as Queryable;
    owns = true;
  } else db = target;
  try {
    const params = await prepare(db, options);
    return new PgIndex(db, params, owns);
  } catch (error) {
    if (owns) await (db as unknown as { end(): Promise<void> }).end().catch(() => {});
    if (error instanceof SimcheckError) throw error;
    throw new SimcheckError('database_error', `无法打开数据库索引：${(error as Error).message}`, {
      cause: error,
    });
  }
}
