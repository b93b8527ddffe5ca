import fs from 'node:fs';
import path from 'node:path';
import { LIBRARY_COLLECTIONS, type LibraryCollection } from '@kyfw/contracts';
import {
  type Catalog,
  type CatalogEntry,
  type CollectionCount,
  matchesQuery,
  rankByTerms,
} from './catalog.ts';

/** The catalogue file inside the local index folder. */
export const CATALOG_FILE = 'catalog.jsonl';

type Line = CatalogEntry | { id: string; removed: true };

/**
 * Lines written before collections existed: a user's opted-in paper is `user`, an import `journal`
 * (the only collection imported then); no discipline. Before abstracts were kept: none, no keywords.
 */
function withDefaults(entry: CatalogEntry): CatalogEntry {
  if (entry.collection && entry.discipline !== undefined && entry.abstract !== undefined && entry.keywords)
    return entry;
  return {
    ...entry,
    discipline: entry.discipline ?? null,
    abstract: entry.abstract ?? null,
    keywords: entry.keywords ?? [],
    collection: entry.collection ?? (entry.origin === 'upload' ? 'user' : 'journal'),
  };
}

/**
 * The embedded-mode catalogue: append-only JSON lines in the index folder (`catalog.jsonl`), the last
 * line of an id wins and `{"id","removed":true}` deletes. Held in memory and re-read when another
 * process (the import CLI) appended to it. Appends are made under the index write lock
 * (index-lock.ts), so lines from two processes never interleave.
 */
export function openLocalCatalog(indexDir: string): Catalog {
  const file = path.join(indexDir, CATALOG_FILE);
  let byId = new Map<string, CatalogEntry>();
  let byHash = new Map<string, string>();
  let loadedSize = -1;
  let loadedMtime = -1;

  function refresh(): void {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      if (loadedSize !== 0) {
        byId = new Map();
        byHash = new Map();
        loadedSize = 0;
        loadedMtime = 0;
      }
      return;
    }
    if (stat.size === loadedSize && stat.mtimeMs === loadedMtime) return;
    const ids = new Map<string, CatalogEntry>();
    const content = fs.readFileSync(file, 'utf8');
    for (const raw of content.split('\n')) {
      if (!raw.trim()) continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a torn last line after a crash: the document is re-imported on the next run
      }
      if ('removed' in line) ids.delete(line.id);
      else ids.set(line.id, withDefaults(line));
    }
    const hashes = new Map<string, string>();
    for (const e of ids.values()) hashes.set(e.contentHash, e.id);
    byId = ids;
    byHash = hashes;
    loadedSize = stat.size;
    loadedMtime = stat.mtimeMs;
  }

  /** Appends lines; when nobody else wrote meanwhile, applies them in memory instead of re-reading. */
  function append(lines: readonly Line[]): void {
    if (lines.length === 0) return;
    refresh();
    fs.mkdirSync(indexDir, { recursive: true });
    const data = Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const fd = fs.openSync(file, 'a');
    try {
      fs.writeSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const stat = fs.statSync(file);
    if (stat.size !== loadedSize + data.length) return; // another writer: refresh() re-reads
    for (const line of lines) {
      const old = byId.get(line.id);
      if (old && byHash.get(old.contentHash) === line.id) byHash.delete(old.contentHash);
      if ('removed' in line) byId.delete(line.id);
      else {
        byId.set(line.id, withDefaults(line));
        byHash.set(line.contentHash, line.id);
      }
    }
    loadedSize = stat.size;
    loadedMtime = stat.mtimeMs;
  }

  return {
    async get(ids) {
      refresh();
      const out = new Map<string, CatalogEntry>();
      for (const id of ids) {
        const e = byId.get(id);
        if (e) out.set(id, e);
      }
      return out;
    },
    async existingIds(ids) {
      refresh();
      return new Set(ids.filter((id) => byId.has(id)));
    },
    async existingHashes(hashes) {
      refresh();
      const out = new Map<string, string>();
      for (const h of hashes) {
        const id = byHash.get(h);
        if (id !== undefined) out.set(h, id);
      }
      return out;
    },
    async add(entries) {
      append(entries);
    },
    async remove(id) {
      refresh();
      if (!byId.has(id)) return false;
      append([{ id, removed: true }]);
      return true;
    },
    async count() {
      refresh();
      return byId.size;
    },
    async composition() {
      refresh();
      const counts = new Map<LibraryCollection, CollectionCount>();
      for (const e of byId.values()) {
        const c = counts.get(e.collection) ?? {
          collection: e.collection,
          documents: 0,
          chars: 0,
          lastAddedAt: null,
        };
        c.documents++;
        c.chars += e.chars;
        if (!c.lastAddedAt || e.addedAt > c.lastAddedAt) c.lastAddedAt = e.addedAt;
        counts.set(e.collection, c);
      }
      return LIBRARY_COLLECTIONS.flatMap((c) => counts.get(c) ?? []);
    },
    async outsideCollections(ids, collections) {
      refresh();
      const allowed = new Set<string>(collections);
      return new Set(ids.filter((id) => !allowed.has(byId.get(id)?.collection ?? 'journal')));
    },
    async searchRecords(terms, limit) {
      refresh();
      return rankByTerms(byId.values(), terms, limit);
    },
    async find(query) {
      refresh();
      const found = [...byId.values()].filter((e) => matchesQuery(e, query));
      found.sort((a, b) => (a.addedAt < b.addedAt ? 1 : a.addedAt > b.addedAt ? -1 : a.id < b.id ? -1 : 1));
      return { total: found.length, list: found.slice(query.offset, query.offset + query.limit) };
    },
    async close() {},
  };
}
