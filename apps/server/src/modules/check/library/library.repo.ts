import { LIBRARY_COLLECTIONS, type LibraryCollection } from '@kyfw/contracts';
import { type Database, type Kysely, sql } from '@kyfw/db';
import { type Catalog, type CatalogEntry, rankByTerms } from './catalog.ts';

/** Rows per statement (PostgreSQL's 65,535 bind parameters, 13 columns per row). */
const BATCH = 2000;

function toEntry(row: {
  id: string;
  title: string | null;
  authors: unknown;
  year: number | null;
  source: string | null;
  discipline: string | null;
  abstract: string | null;
  keywords: unknown;
  collection: LibraryCollection;
  content_hash: string;
  chars: number;
  origin: 'import' | 'upload';
  added_at: Date;
}): CatalogEntry {
  return {
    id: row.id,
    title: row.title,
    authors: Array.isArray(row.authors) ? row.authors.map(String) : [],
    year: row.year,
    source: row.source,
    discipline: row.discipline,
    abstract: row.abstract,
    keywords: Array.isArray(row.keywords) ? row.keywords.map(String) : [],
    collection: row.collection,
    contentHash: row.content_hash,
    chars: row.chars,
    origin: row.origin,
    addedAt: row.added_at.toISOString(),
  };
}

/** The scaled-mode catalogue: the table check_library_documents (migration 0005_check.sql). */
export function createPgCatalog(db: Kysely<Database>): Catalog {
  return {
    async get(ids) {
      const out = new Map<string, CatalogEntry>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const rows = await db
          .selectFrom('check_library_documents')
          .selectAll()
          .where('id', 'in', ids.slice(i, i + BATCH))
          .execute();
        for (const row of rows) out.set(row.id, toEntry(row));
      }
      return out;
    },
    async existingIds(ids) {
      const out = new Set<string>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const part = ids.slice(i, i + BATCH);
        if (part.length === 0) continue;
        const rows = await db
          .selectFrom('check_library_documents')
          .select('id')
          .where('id', 'in', part)
          .execute();
        for (const r of rows) out.add(r.id);
      }
      return out;
    },
    async existingHashes(hashes) {
      const out = new Map<string, string>();
      for (let i = 0; i < hashes.length; i += BATCH) {
        const part = hashes.slice(i, i + BATCH);
        if (part.length === 0) continue;
        const rows = await db
          .selectFrom('check_library_documents')
          .select(['id', 'content_hash'])
          .where('content_hash', 'in', part)
          .execute();
        for (const r of rows) out.set(r.content_hash, r.id);
      }
      return out;
    },
    async add(entries) {
      for (let i = 0; i < entries.length; i += BATCH) {
        const part = entries.slice(i, i + BATCH);
        await db
          .insertInto('check_library_documents')
          .values(
            part.map((e) => ({
              id: e.id,
              title: e.title,
              authors: JSON.stringify(e.authors),
              year: e.year,
              source: e.source,
              discipline: e.discipline,
              abstract: e.abstract,
              keywords: JSON.stringify(e.keywords),
              collection: e.collection,
              content_hash: e.contentHash,
              chars: e.chars,
              origin: e.origin,
              added_at: e.addedAt,
            })),
          )
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              title: eb.ref('excluded.title'),
              authors: eb.ref('excluded.authors'),
              year: eb.ref('excluded.year'),
              source: eb.ref('excluded.source'),
              discipline: eb.ref('excluded.discipline'),
              abstract: eb.ref('excluded.abstract'),
              keywords: eb.ref('excluded.keywords'),
              collection: eb.ref('excluded.collection'),
              content_hash: eb.ref('excluded.content_hash'),
              chars: eb.ref('excluded.chars'),
              origin: eb.ref('excluded.origin'),
            })),
          )
          .execute();
      }
    },
    async remove(id) {
      const r = await db.deleteFrom('check_library_documents').where('id', '=', id).executeTakeFirst();
      return r.numDeletedRows > 0n;
    },
    async count() {
      const row = await db
        .selectFrom('check_library_documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async composition() {
      const rows = await db
        .selectFrom('check_library_documents')
        .select((eb) => [
          'collection',
          eb.fn.countAll<number>().as('documents'),
          eb.fn.sum<number>('chars').as('chars'),
          eb.fn.max('added_at').as('last_added_at'),
        ])
        .groupBy('collection')
        .execute();
      const byCollection = new Map(rows.map((r) => [r.collection, r]));
      return LIBRARY_COLLECTIONS.flatMap((collection) => {
        const r = byCollection.get(collection);
        return r
          ? [
              {
                collection,
                documents: Number(r.documents),
                chars: Number(r.chars),
                lastAddedAt: r.last_added_at ? new Date(r.last_added_at).toISOString() : null,
              },
            ]
          : [];
      });
    },
    async outsideCollections(ids, collections) {
      const out = new Set<string>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const part = ids.slice(i, i + BATCH);
        if (part.length === 0) continue;
        const rows = await db
          .selectFrom('check_library_documents')
          .select('id')
          .where('id', 'in', part)
          .where('collection', 'not in', [...collections, '' as LibraryCollection])
          .execute();
        for (const r of rows) out.add(r.id);
      }
      return out;
    },
    async searchRecords(terms, limit) {
      const wanted = terms.filter(Boolean).slice(0, 12);
      if (wanted.length === 0) return [];
      const like = (t: string) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // The score of rankByTerms in SQL, so the candidates fetched are the best ones.
      const score = sql.join(
        wanted.map(
          (t) => sql`(case when title ilike ${like(t)} then 3
            when keywords::text ilike ${like(t)} then 2
            when abstract ilike ${like(t)} then 1 else 0 end)`,
        ),
        sql` + `,
      );
      const rows = await db
        .selectFrom('check_library_documents')
        .selectAll()
        .where('origin', '=', 'import')
        .where('title', 'is not', null)
        .where(sql<boolean>`${score} > 0`)
        .orderBy(sql`${score}`, 'desc')
        .orderBy(sql`year desc nulls last`)
        .limit(Math.max(limit, 200))
        .execute();
      return rankByTerms(rows.map(toEntry), wanted, limit);
    },
    async find(query) {
      const text = query.text.trim();
      let q = db.selectFrom('check_library_documents');
      if (query.collection) q = q.where('collection', '=', query.collection);
      if (text) {
        const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([
            eb('id', '=', text),
            eb('title', 'ilike', like),
            eb(sql<string>`authors::text`, 'ilike', like),
          ]),
        );
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('added_at', 'desc')
        .orderBy('id')
        .offset(query.offset)
        .limit(query.limit)
        .execute();
      return { total: Number(total.n), list: rows.map(toEntry) };
    },
    async close() {},
  };
}
