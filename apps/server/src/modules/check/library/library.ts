import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LibraryCollection } from '@kyfw/contracts';
import type { Database, Kysely } from '@kyfw/db';
import {
  type CheckOptions,
  checkText,
  type Index,
  type LocalIndex,
  openIndex,
  type Postings,
  prepareEngine,
  type Report,
  type StoredDocument,
} from '@kyfw/simcheck';
import type { Catalog, CatalogEntry, CatalogQuery, CollectionCount, LibraryOrigin } from './catalog.ts';
import { withIndexWriteLock } from './index-lock.ts';
import { createPgCatalog } from './library.repo.ts';
import { openLocalCatalog } from './local-catalog.ts';

/**
 * The comparison library: the engine's similarity index plus our catalogue (catalog.ts), in the
 * mode the server runs in — the local on-disk index under DATA_DIR/index (embedded), or the
 * PostgreSQL index and table with DATABASE_URL (scaled). The service, the check job and the import
 * CLI all go through this one object.
 */

export type LibraryLocation =
  | { kind: 'local'; dir: string }
  | { kind: 'postgres'; databaseUrl: string; db: Kysely<Database> };

/** One document to add: the text and what the catalogue keeps about it. */
export interface LibraryInput {
  id: string;
  text: string;
  title?: string | null;
  authors?: readonly string[];
  year?: number | null;
  source?: string | null;
  discipline?: string | null;
  /** The record's abstract and keywords, when the source has them (searched for references). */
  abstract?: string | null;
  keywords?: readonly string[];
  /** Default: `user` for an upload, else `journal`. */
  collection?: LibraryCollection;
  origin?: LibraryOrigin;
}

export interface AddSummary {
  /** Documents read from the input. */
  read: number;
  added: number;
  /** Already in the library under the same id (a resumed import). */
  skippedExisting: number;
  /** Same text as a document already in the library, or earlier in this input. */
  skippedDuplicates: number;
  /** No text, or no id. */
  skippedInvalid: number;
  characters: number;
}

export interface AddOptions {
  /** Called after every batch. */
  onProgress?: (summary: Readonly<AddSummary>) => void;
  /** Documents per batch (one index segment each in the local mode); default 5000. */
  batchDocuments?: number;
  /** Characters per batch; default 8,000,000. */
  batchCharacters?: number;
  /** Called when the local index is locked by another process and this one waits. */
  onWaitForLock?: (pid: number) => void;
}

/** The result of a check with the stored texts of the candidate sources (for source excerpts). */
export interface LibraryCheckResult {
  report: Report;
  sources: Map<string, StoredDocument>;
}

export interface Library {
  readonly location: LibraryLocation;
  /** Human-readable place of the library (a folder or 'PostgreSQL'). */
  describe(): string;
  check(text: string, options?: CheckOptions): Promise<LibraryCheckResult>;
  add(
    documents: Iterable<LibraryInput> | AsyncIterable<LibraryInput>,
    options?: AddOptions,
  ): Promise<AddSummary>;
  /** Removes a document from the index and the catalogue; false when it was not there. */
  remove(id: string): Promise<boolean>;
  /** Catalogue entries (authors, year, source) of the given ids. */
  describeSources(ids: readonly string[]): Promise<Map<string, CatalogEntry>>;
  /** Documents in the index. */
  countDocuments(): Promise<number>;
  /** Documents and characters per collection, from the catalogue. */
  composition(): Promise<CollectionCount[]>;
  /** The console's search of the catalogue (Catalog.find). */
  find(query: CatalogQuery): Promise<{ total: number; list: CatalogEntry[] }>;
  /** Of the given document ids, those outside `collections`. */
  outsideCollections(ids: readonly string[], collections: readonly LibraryCollection[]): Promise<Set<string>>;
  /** Imported documents whose title, keywords or abstract hold the terms (Catalog.searchRecords). */
  searchRecords(terms: readonly string[], limit: number): Promise<CatalogEntry[]>;
  close(): Promise<void>;
}

/** SHA-256 of the text without whitespace, after NFKC: the same paper pasted twice is one document. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text.normalize('NFKC').replace(/\s+/gu, '')).digest('hex');
}

function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

/**
 * The index as `checkText` sees it, remembering the documents it fetched (the candidate sources),
 * and without the postings of the `excluded` documents (those outside the collections a check
 * compares against): they are never candidates.
 */
function capturingIndex(
  index: Index,
  sources: Map<string, StoredDocument>,
  excluded?: ReadonlySet<number>,
): Index {
  return {
    get backend() {
      return index.backend;
    },
    get params() {
      return index.params;
    },
    addDocuments: (docs, options) => index.addDocuments(docs, options),
    removeDocument: (id) => index.removeDocument(id),
    stats: () => index.stats(),
    lookup: async (hashes, options) => {
      const postings = await index.lookup(hashes, options);
      return excluded && excluded.size > 0 ? withoutDocuments(postings, excluded) : postings;
    },
    async getDocuments(docNos) {
      const docs = await index.getDocuments(docNos);
      for (const d of docs) sources.set(d.id, d);
      return docs;
    },
    close: async () => {},
  };
}

/** The postings without those of the `excluded` documents (order kept). */
function withoutDocuments(postings: Postings, excluded: ReadonlySet<number>): Postings {
  const keep: number[] = [];
  for (let i = 0; i < postings.docNos.length; i++) if (!excluded.has(postings.docNos[i]!)) keep.push(i);
  if (keep.length === postings.docNos.length) return postings;
  const pick = (from: Uint32Array) => Uint32Array.from(keep, (i) => from[i]!);
  return {
    hashes: pick(postings.hashes),
    docNos: pick(postings.docNos),
    positions: pick(postings.positions),
    ...(postings.frequent ? { frequent: postings.frequent } : {}),
  };
}

/** Options of a check against the library: the engine's, and documents left out (by number). */
export type LibraryCheckOptions = CheckOptions & { excludeDocNos?: readonly number[] };

/** Opens the library of the configured mode (creating an empty local index on first use). */
export async function openLibrary(location: LibraryLocation): Promise<Library> {
  return location.kind === 'local' ? openLocalLibrary(location.dir) : openPgLibrary(location);
}

type Batch = { docs: LibraryInput[]; chars: number };

/** Shared batching, id/duplicate skipping and catalogue bookkeeping of `add` for both modes. */
async function addInBatches(
  documents: Iterable<LibraryInput> | AsyncIterable<LibraryInput>,
  options: AddOptions,
  writeBatch: (fn: () => Promise<void>) => Promise<void>,
  catalog: Catalog,
  addToIndex: (docs: LibraryInput[]) => Promise<void>,
): Promise<AddSummary> {
  const summary: AddSummary = {
    read: 0,
    added: 0,
    skippedExisting: 0,
    skippedDuplicates: 0,
    skippedInvalid: 0,
    characters: 0,
  };
  const maxDocs = options.batchDocuments ?? 5000;
  const maxChars = options.batchCharacters ?? 8_000_000;
  let batch: Batch = { docs: [], chars: 0 };

  const flush = async () => {
    if (batch.docs.length === 0) return;
    const current = batch;
    batch = { docs: [], chars: 0 };
    await writeBatch(async () => {
      const ids = current.docs.map((d) => d.id);
      const existing = await catalog.existingIds(ids);
      const candidates: { doc: LibraryInput; hash: string }[] = [];
      for (const doc of current.docs) {
        if (existing.has(doc.id)) summary.skippedExisting++;
        else candidates.push({ doc, hash: contentHash(doc.text) });
      }
      const known = await catalog.existingHashes(candidates.map((c) => c.hash));
      const seen = new Set<string>();
      const seenIds = new Set<string>();
      const fresh: { doc: LibraryInput; hash: string }[] = [];
      for (const c of candidates) {
        if (seenIds.has(c.doc.id)) {
          summary.skippedExisting++;
          continue;
        }
        if (known.has(c.hash) || seen.has(c.hash)) {
          summary.skippedDuplicates++;
          continue;
        }
        seen.add(c.hash);
        seenIds.add(c.doc.id);
        fresh.push(c);
      }
      if (fresh.length === 0) return;
      // Index first, catalogue second: a crash in between re-adds these ids on the next run, and
      // the index replaces a document whose id it already holds.
      await addToIndex(fresh.map((f) => f.doc));
      const now = new Date().toISOString();
      await catalog.add(
        fresh.map(({ doc, hash }) => ({
          id: doc.id,
          title: doc.title ?? null,
          authors: [...(doc.authors ?? [])],
          year: doc.year ?? null,
          source: doc.source ?? null,
          discipline: doc.discipline ?? null,
          abstract: doc.abstract ?? null,
          keywords: [...(doc.keywords ?? [])],
          collection: doc.collection ?? (doc.origin === 'upload' ? 'user' : 'journal'),
          contentHash: hash,
          chars: countCodePoints(doc.text),
          origin: doc.origin ?? 'import',
          addedAt: now,
        })),
      );
      summary.added += fresh.length;
      for (const f of fresh) summary.characters += f.doc.text.length;
    });
    options.onProgress?.({ ...summary });
  };

  for await (const doc of documents) {
    summary.read++;
    if (
      !doc ||
      typeof doc.id !== 'string' ||
      doc.id === '' ||
      typeof doc.text !== 'string' ||
      !doc.text.trim()
    ) {
      summary.skippedInvalid++;
      continue;
    }
    batch.docs.push(doc);
    batch.chars += doc.text.length;
    if (batch.docs.length >= maxDocs || batch.chars >= maxChars) await flush();
  }
  await flush();
  return summary;
}

function toLibraryDocs(docs: LibraryInput[]) {
  return docs.map((d) => ({ id: d.id, title: d.title ?? null, text: d.text }));
}

/** Identity of the manifest file: a commit renames a new file into place (new inode). */
function manifestStamp(dir: string): string {
  try {
    const s = fs.statSync(path.join(dir, 'manifest.json'));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return 'none';
  }
}

/** Checks against an index; the local one is reopened when another process committed to it. */
export interface IndexReader {
  check(text: string, options?: LibraryCheckOptions): Promise<LibraryCheckResult>;
  /** The engine's start-up work, with warm-up checks against this index (see prepareEngine). */
  prepare(): Promise<void>;
  countDocuments(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A reader of the local index folder. The import CLI (another process) or our own writer may have
 * committed since it was opened: it reopens when the manifest changed, and closes the old instance
 * when the last check using it ends.
 */
/** @param memoryBytes postings held in memory (see simcheck's openIndex); default the engine's. */
export function createLocalReader(dir: string, memoryBytes?: number): IndexReader {
  type Reader = { index: LocalIndex; stamp: string; users: number; superseded: boolean };
  let reader: Reader | undefined;
  let opening: Promise<Reader> | undefined;

  const release = async (r: Reader) => {
    r.users--;
    if (r.superseded && r.users === 0) await r.index.close();
  };

  async function acquire(): Promise<Reader> {
    for (;;) {
      const stamp = manifestStamp(dir);
      if (reader && reader.stamp === stamp) {
        reader.users++;
        return reader;
      }
      if (!opening) {
        opening = (async () => {
          let index: LocalIndex;
          const options = { create: true, ...(memoryBytes !== undefined ? { memoryBytes } : {}) };
          try {
            index = await openIndex(dir, options);
          } catch (error) {
            // A compaction may have removed a segment between reading the manifest and opening it.
            if (manifestStamp(dir) === stamp) throw error;
            index = await openIndex(dir, options);
          }
          const old = reader;
          const fresh: Reader = { index, stamp: manifestStamp(dir), users: 0, superseded: false };
          reader = fresh;
          if (old) {
            old.superseded = true;
            if (old.users === 0) await old.index.close();
          }
          return fresh;
        })().finally(() => {
          opening = undefined;
        });
      }
      const r = await opening;
      if (r === reader) {
        r.users++;
        return r;
      }
    }
  }

  return {
    async check(text, options) {
      const r = await acquire();
      try {
        const sources = new Map<string, StoredDocument>();
        const { excludeDocNos, ...engine } = options ?? {};
        const index = capturingIndex(r.index, sources, new Set(excludeDocNos));
        const report = await checkText(index, text, engine);
        return { report, sources };
      } finally {
        await release(r);
      }
    },
    async prepare() {
      const r = await acquire();
      try {
        await prepareEngine({}, r.index);
      } finally {
        await release(r);
      }
    },
    async countDocuments() {
      const r = await acquire();
      try {
        return (await r.index.stats()).documents;
      } finally {
        await release(r);
      }
    },
    async close() {
      if (reader) {
        reader.superseded = true;
        if (reader.users === 0) await reader.index.close();
        reader = undefined;
      }
    },
  };
}

/** A reader of the PostgreSQL index (its own small pool). */
export async function createPgReader(databaseUrl: string): Promise<IndexReader & { index: Index }> {
  // The driver is loaded only in the scaled mode.
  const { createPgIndex } = await import('@kyfw/simcheck/pg');
  const index = await createPgIndex(databaseUrl);
  return {
    index,
    async check(text, options) {
      const sources = new Map<string, StoredDocument>();
      const { excludeDocNos, ...engine } = options ?? {};
      const report = await checkText(capturingIndex(index, sources, new Set(excludeDocNos)), text, engine);
      return { report, sources };
    },
    prepare: () => prepareEngine({}, index),
    async countDocuments() {
      return (await index.stats()).documents;
    },
    close: () => index.close(),
  };
}

async function openLocalLibrary(dir: string): Promise<Library> {
  // Create the empty index once (under the lock, so a concurrent import is not disturbed).
  if (manifestStamp(dir) === 'none') {
    await withIndexWriteLock(dir, async () => {
      const created = await openIndex(dir, { create: true, memoryBytes: 0 });
      await created.close();
    });
  }
  const catalog = openLocalCatalog(dir);
  const reader = createLocalReader(dir);

  return {
    location: { kind: 'local', dir },
    describe: () => dir,
    check: (text, options) => reader.check(text, options),
    add(documents, options = {}) {
      // Every batch is written by a fresh instance under the lock: another process may have
      // committed segments our reader does not know of, and the manifest must not lose them.
      return addInBatches(
        documents,
        options,
        (fn) => withIndexWriteLock(dir, fn, { onWait: options.onWaitForLock }),
        catalog,
        async (docs) => {
          const writer = await openIndex(dir, { create: true, memoryBytes: 0 });
          try {
            await writer.addDocuments(toLibraryDocs(docs));
          } finally {
            await writer.close();
          }
        },
      );
    },
    async remove(id) {
      return withIndexWriteLock(dir, async () => {
        const writer = await openIndex(dir, { create: true, memoryBytes: 0 });
        try {
          const removed = await writer.removeDocument(id);
          const listed = await catalog.remove(id);
          return removed || listed;
        } finally {
          await writer.close();
        }
      });
    },
    describeSources: (ids) => catalog.get(ids),
    searchRecords: (terms, limit) => catalog.searchRecords(terms, limit),
    countDocuments: () => reader.countDocuments(),
    composition: () => catalog.composition(),
    find: (query) => catalog.find(query),
    outsideCollections: (ids, collections) => catalog.outsideCollections(ids, collections),
    async close() {
      await reader.close();
      await catalog.close();
    },
  };
}

async function openPgLibrary(location: { databaseUrl: string; db: Kysely<Database> }): Promise<Library> {
  const reader = await createPgReader(location.databaseUrl);
  const index = reader.index;
  const catalog = createPgCatalog(location.db);
  return {
    location: { kind: 'postgres', ...location },
    describe: () => 'PostgreSQL (DATABASE_URL)',
    check: (text, options) => reader.check(text, options),
    add(documents, options = {}) {
      return addInBatches(
        documents,
        options,
        (fn) => fn(),
        catalog,
        async (docs) => {
          await index.addDocuments(toLibraryDocs(docs));
        },
      );
    },
    async remove(id) {
      const removed = await index.removeDocument(id);
      const listed = await catalog.remove(id);
      return removed || listed;
    },
    describeSources: (ids) => catalog.get(ids),
    composition: () => catalog.composition(),
    find: (query) => catalog.find(query),
    outsideCollections: (ids, collections) => catalog.outsideCollections(ids, collections),
    searchRecords: (terms, limit) => catalog.searchRecords(terms, limit),
    // The catalogue's count: counting the index's tables means scanning every fingerprint row.
    countDocuments: () => catalog.count(),
    async close() {
      await reader.close();
      await catalog.close();
    },
  };
}
