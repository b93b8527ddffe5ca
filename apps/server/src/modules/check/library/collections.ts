import { LIBRARY_COLLECTION_NAMES, LIBRARY_COLLECTIONS, type LibraryCollection } from '@kyfw/contracts';
import type { GoodsRecord } from '../../orders/orders.api.ts';
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
