import { RELOAD_GUARD_TTL_MS } from '@kyfw/contracts';
import { readStorage, writeStorage } from './storage';

export const RELOAD_GUARD_KEY = 'kyfw:lastReloadAt';

export interface ReloadGuardOptions {
  ttlMs?: number;
  key?: string;
  now?: () => number;
  reload?: () => void;
}

/**
 * Reloads the page at most once per ttl (spec §2: 10 s). The time of the last automatic reload is
 * kept in sessionStorage, which survives the reload itself, so a chunk that keeps failing or a
 * version file that keeps differing cannot put the tab into a reload loop.
 *
 * @returns true when a reload was started, false when the guard held it back.
 */
export function reloadWithGuard(options: ReloadGuardOptions = {}): boolean {
  const {
    ttlMs = RELOAD_GUARD_TTL_MS,
    key = RELOAD_GUARD_KEY,
    now = Date.now,
    reload = () => window.location.reload(),
  } = options;
  const last = Number(readStorage(key, 'sessionStorage'));
  const current = now();
  if (Number.isFinite(last) && last > 0 && current - last < ttlMs) return false;
  writeStorage(key, String(current), 'sessionStorage');
  reload();
  return true;
}

/** True for the errors browsers raise when a lazily loaded chunk (JS or CSS) cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  if (!error) return false;
  const name = (error as { name?: unknown }).name;
  const message = error instanceof Error ? error.message : String(error);
  return (
    name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i.test(
      message,
    )
  );
}
