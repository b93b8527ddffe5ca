import { LIBRARY_COLLECTION_NAMES, LIBRARY_COLLECTIONS, type LibraryCollection } from '@kyfw/contracts';
import type { GoodsRecord } from '../../orders/index.ts';
import { TEXTS } from '../check.texts.ts';
import type { CollectionCount } from './catalog.ts';

/**
 * The collections a check goods compares against (goods.library_collections, migration 0017); null
 * when it names none (every collection) or is unknown.
 */
export function collectionsOf(
  goods: Pick<GoodsRecord, 'libraryCollections'> | undefined,
): LibraryCollection[] | null {
  const named = goods?.libraryCollections;
  if (!named) return null;
  return LIBRARY_COLLECTIONS.filter((c) => named.includes(c));
}

/**
 * What a goods card states of its comparison scope, from the library as it is: each collection it
 * names with its real number of documents (0: 暂无收录), so a collection without content is never
 * sold as if it had some.
 */
export function scopeOf(
  collections: readonly LibraryCollection[] | null,
  composition: readonly CollectionCount[],
) {
  const counts = new Map(composition.map((c) => [c.collection, c.documents]));
  const named = collections ?? LIBRARY_COLLECTIONS;
  const items = named.map((collection) => ({
    collection,
    name: LIBRARY_COLLECTION_NAMES[collection],
    documents: counts.get(collection) ?? 0,
  }));
  return {
    collections: items,
    /** Documents it really compares against. */
    documents: items.reduce((n, c) => n + c.documents, 0),
  };
}

/**
 * Why a similarity goods cannot be ordered now, or null when it can (issue 12: a goods whose
 * collections are empty is not sold as if they were not):
 * - every collection it compares against is empty (a fresh install: `npm run library:import` has
 *   not run), so a check would find nothing whatever the paper; or
 * - a collection it is not sold without (goods.library_required, migration 0038: 硕博's thesis
 *   collection) holds no document, so it would give another goods' result at its own price.
 * The goods list says the same (`available: false` with this reason), and /freeCheck/uploadFile
 * refuses such goods before anything is stored.
 */
export function saleRefusalOf(
  goods: Pick<GoodsRecord, 'name' | 'libraryRequired' | 'libraryCollections'>,
  composition: readonly CollectionCount[],
): string | null {
  const held = new Set(composition.filter((c) => c.documents > 0).map((c) => c.collection));
  const named = collectionsOf(goods) ?? LIBRARY_COLLECTIONS;
  if (!named.some((c) => held.has(c)))
    return TEXTS.goodsLibraryEmpty(goods.name, named.map((c) => LIBRARY_COLLECTION_NAMES[c]).join('、'));
  const empty = LIBRARY_COLLECTIONS.filter((c) => goods.libraryRequired?.includes(c) && !held.has(c));
  if (empty.length === 0) return null;
  return TEXTS.goodsCollectionEmpty(goods.name, empty.map((c) => LIBRARY_COLLECTION_NAMES[c]).join('、'));
}
