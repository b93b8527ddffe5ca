import type { Database, Kysely } from '@kyfw/db';
import { toBenefitsView } from '../accounts/index.ts';
import { type FriendLink, findSiteInfo, listFriendLinks, type SiteInfo } from './home.repo.ts';

export interface HomeInfo {
  webInfo: SiteInfo;
  friendLinkList: FriendLink[];
  /** What registration gives (accounts/benefits.ts): `available` false is shown as 即将开放. */
  benefits: ReturnType<typeof toBenefitsView>;
}

const EMPTY_SITE_INFO: SiteInfo = {
  name: '',
  contactPhone: '',
  companyAddress: '',
  qrCode: '',
  recordNumber: '',
  copyright: '',
};

export interface HomeService {
  getHomeInfo(): Promise<HomeInfo>;
  /** Drop the cached home info; call after editing site settings or friend links. */
  invalidate(): void;
}

/**
 * Home info is read on every page load and changes rarely, so it is cached in memory for `ttlMs`
 * (5 s: a few reads a second at most, whatever the traffic). Concurrent misses share one database
 * read. The console's edits call `invalidate()`, so the process that saved shows them at once; other
 * API processes within the 5 s.
 */
export function createHomeService(deps: {
  db: Kysely<Database>;
  ttlMs?: number;
  now?: () => number;
}): HomeService {
  const ttlMs = deps.ttlMs ?? 5_000;
  const now = deps.now ?? Date.now;
  let cache: { expiresAt: number; value: Promise<HomeInfo> } | undefined;

  async function load(): Promise<HomeInfo> {
    const [webInfo, friendLinkList] = await Promise.all([findSiteInfo(deps.db), listFriendLinks(deps.db)]);
    return { webInfo: webInfo ?? EMPTY_SITE_INFO, friendLinkList, benefits: toBenefitsView() };
  }

  return {
    getHomeInfo() {
      if (cache && cache.expiresAt > now()) return cache.value;
      const entry = { expiresAt: now() + ttlMs, value: load() };
      cache = entry;
      // A failed read must not be served from the cache until the TTL runs out.
      entry.value.catch(() => {
        if (cache === entry) cache = undefined;
      });
      return entry.value;
    },
    invalidate() {
      cache = undefined;
    },
  };
}
