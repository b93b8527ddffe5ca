/**
 * The library catalogue: what the similarity index does not keep about a reference document —
 * authors, year, where it comes from, and a content hash to skip duplicates. One entry per document
 * id in the index. Two stores behind one interface, like the index itself: a JSON-lines file beside
 * the local index (embedded mode, usable by the import CLI while the server runs) and a PostgreSQL
 * table (scaled mode).
 */

import type { LibraryCollection } from '@kyfw/contracts';

/** Where a library document came from: an operator's import, or a user's upload they opted in. */
export type LibraryOrigin = 'import' | 'upload';

/** One collection's part of the library (what the pages state as its size and composition). */
export interface CollectionCount {
  collection: LibraryCollection;
  documents: number;
  chars: number;
}

export interface CatalogEntry {
  /** The document id in the similarity index. */
  id: string;
  title: string | null;
  authors: string[];
  year: number | null;
  /** Where it was published, e.g. 《计算机学报》 (never the import file's name). */
  source: string | null;
  /** 学科, when the record names one. */
  discipline: string | null;
  /** The collection it was imported into (`--collection`); a user's opted-in paper is `user`. */
  collection: LibraryCollection;
  /** SHA-256 (hex) of the whitespace-free NFKC text: equal texts are one document. */
  contentHash: string;
  chars: number;
  origin: LibraryOrigin;
  addedAt: string;
}

export interface Catalog {
  /** Entries of the given ids that exist (unknown ids are left out). */
  get(ids: readonly string[]): Promise<Map<string, CatalogEntry>>;
  /** Of the given ids, those already in the catalogue. */
  existingIds(ids: readonly string[]): Promise<Set<string>>;
  /** Of the given content hashes, those already in the catalogue, with the id holding each. */
  existingHashes(hashes: readonly string[]): Promise<Map<string, string>>;
  /** Records entries (after their documents were added to the index); an existing id is replaced. */
  add(entries: readonly CatalogEntry[]): Promise<void>;
  remove(id: string): Promise<boolean>;
  count(): Promise<number>;
  /** Documents and characters per collection (collections without documents are left out). */
  composition(): Promise<CollectionCount[]>;
  /** Of the given ids, those whose collection is not one of `collections`. */
  outsideCollections(ids: readonly string[], collections: readonly LibraryCollection[]): Promise<Set<string>>;
  /**
   * Imported entries whose title contains any of `terms` (case-insensitive), most terms matched
   * first, then newest; users' uploads are never offered (they are other students' papers).
   */
  searchTitles(terms: readonly string[], limit: number): Promise<CatalogEntry[]>;
  close(): Promise<void>;
}

/** Orders candidates for searchTitles: more matched terms first, then newer, then title. */
export function rankByTerms(
  entries: Iterable<CatalogEntry>,
  terms: readonly string[],
  limit: number,
): CatalogEntry[] {
  const wanted = terms.map((t) => t.toLowerCase()).filter(Boolean);
  const scored: { entry: CatalogEntry; score: number }[] = [];
  for (const entry of entries) {
    if (entry.origin !== 'import' || !entry.title) continue;
    const title = entry.title.toLowerCase();
    const score = wanted.filter((t) => title.includes(t)).length;
    if (score > 0) scored.push({ entry, score });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (b.entry.year ?? 0) - (a.entry.year ?? 0) ||
      (a.entry.title ?? '').localeCompare(b.entry.title ?? ''),
  );
  return scored.slice(0, limit).map((s) => s.entry);
}
