/**
 * The public news answers (/home/article, /home/articleContent, /home/casePhoto, sitemap.xml, page
 * heads) are read on every visit and change only when an editor acts, so they are kept in memory
 * per key for `ttlMs`. Concurrent misses share one read; a failed read is not kept. `invalidate()`
 * (called by every console change) drops everything and bumps `version`, which the ETags carry.
 * With several API processes an edit shows everywhere within `ttlMs`, in this process at once.
 */
export interface NewsCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  invalidate(): void;
  /** Changes on every invalidate (ETags of cached answers). */
  readonly version: number;
}

export function createNewsCache(
  options: { ttlMs?: number; now?: () => number; maxEntries?: number } = {},
): NewsCache {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 500;
  let entries = new Map<string, { expiresAt: number; value: Promise<unknown> }>();
  let version = 1;
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return hit.value as Promise<T>;
      // Bounded: unknown slugs asked for by a crawler cannot grow it without end.
      if (entries.size >= maxEntries) entries = new Map();
      const map = entries;
      const entry = { expiresAt: now() + ttlMs, value: load() };
      map.set(key, entry);
      entry.value.catch(() => {
        if (map.get(key) === entry) map.delete(key);
      });
      return entry.value as Promise<T>;
    },
    invalidate() {
      entries = new Map();
      version += 1;
    },
    get version() {
      return version;
    },
  };
}
