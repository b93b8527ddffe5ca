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
  /** When the newest of its documents was added (ISO), null for none. */
  lastAddedAt: string | null;
}

/** A console search of the catalogue (catalog.find). */
export interface CatalogQuery {
  /** An id (exact), or words of the title or an author's name (case-insensitive); '' for all. */
  text: string;
  collection?: LibraryCollection;
  offset: number;
  limit: number;
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
  /** The record's abstract, when the source has one (searched for references; may repeat the text). */
  abstract: string | null;
  /** The record's keywords, when the source has them. */
  keywords: string[];
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
   * Imported entries whose title, keywords or abstract contain any of `terms` (case-insensitive),
   * best matched first (rankByTerms); users' uploads are never offered (other students' papers).
   */
  searchRecords(terms: readonly string[], limit: number): Promise<CatalogEntry[]>;
  /** The console's search: entries matching `query`, newest first, and how many match in all. */
  find(query: CatalogQuery): Promise<{ total: number; list: CatalogEntry[] }>;
  close(): Promise<void>;
}

/** Whether an entry matches a console search (the local catalogue's filter; PostgreSQL's in SQL). */
export function matchesQuery(entry: CatalogEntry, query: Pick<CatalogQuery, 'text' | 'collection'>): boolean {
  if (query.collection && entry.collection !== query.collection) return false;
  const text = query.text.trim().toLowerCase();
  if (!text) return true;
  return (
    entry.id.toLowerCase() === text ||
    (entry.title ?? '').toLowerCase().includes(text) ||
    entry.authors.some((a) => a.toLowerCase().includes(text))
  );
}

/** Weight of a term found in the title, among the keywords, in the abstract. */
const WEIGHT = { title: 3, keywords: 2, abstract: 1 } as const;

/**
 * How well an entry matches: each term counts once, by the best field it is found in (title 3,
 * keywords 2, abstract 1); 0 when none is found. Terms are lower-case.
 */
export function matchScore(entry: CatalogEntry, terms: readonly string[]): number {
  const title = (entry.title ?? '').toLowerCase();
  const keywords = entry.keywords.map((k) => k.toLowerCase());
  const abstract = (entry.abstract ?? '').toLowerCase();
  let score = 0;
  for (const t of terms) {
    if (title.includes(t)) score += WEIGHT.title;
    else if (keywords.some((k) => k.includes(t))) score += WEIGHT.keywords;
    else if (abstract.includes(t)) score += WEIGHT.abstract;
  }
  return score;
}

/** Orders candidates for searchRecords: higher matchScore first, then newer, then title. */
export function rankByTerms(
  entries: Iterable<CatalogEntry>,
  terms: readonly string[],
  limit: number,
): CatalogEntry[] {
  const wanted = terms.map((t) => t.toLowerCase()).filter(Boolean);
  const scored: { entry: CatalogEntry; score: number }[] = [];
  for (const entry of entries) {
    if (entry.origin !== 'import' || !entry.title) continue;
    const score = matchScore(entry, wanted);
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
