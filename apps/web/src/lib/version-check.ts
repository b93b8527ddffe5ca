/**
 * Build-metadata polling (spec §2): the build writes /version.json `{buildId, builtAt}` and embeds
 * the same buildId in the bundle. Every 60 s and whenever the tab regains focus the file is fetched
 * (never from cache); a different buildId means a new deployment, and the page reloads so that the
 * user does not keep running stale code whose chunks are gone.
 */
export const VERSION_POLL_INTERVAL_MS = 60_000;
export const VERSION_URL = '/version.json';

/** The reload decision: only a well-formed, different build id of a real build counts. */
export function isNewBuild(currentBuildId: string, latest: unknown): boolean {
  if (!currentBuildId || currentBuildId === 'dev') return false;
  if (typeof latest !== 'object' || latest === null) return false;
  const buildId = (latest as { buildId?: unknown }).buildId;
  return typeof buildId === 'string' && buildId !== '' && buildId !== currentBuildId;
}

export interface VersionPollingOptions {
  currentBuildId: string;
  /** Called once a new build is seen; return false when nothing happened (e.g. the reload guard held). */
  onNewBuild: () => boolean | undefined;
  intervalMs?: number;
  url?: string;
  fetchImpl?: typeof fetch;
  target?: Window;
}

/** Starts polling; returns the function that stops it. */
export function startVersionPolling(options: VersionPollingOptions): () => void {
  const {
    currentBuildId,
    onNewBuild,
    intervalMs = VERSION_POLL_INTERVAL_MS,
    url = VERSION_URL,
    fetchImpl = (input, init) => fetch(input, init),
    target = window,
  } = options;
  let stopped = false;
  let inFlight = false;

  const check = async () => {
    if (stopped || inFlight) return;
    inFlight = true;
    try {
      const response = await fetchImpl(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
      if (!response.ok) return;
      const latest: unknown = await response.json();
      if (!stopped && isNewBuild(currentBuildId, latest) && onNewBuild() !== false) stopped = true;
    } catch {
      // offline or a half-deployed server: try again on the next tick
    } finally {
      inFlight = false;
    }
  };

  const timer = setInterval(check, intervalMs);
  const onFocus = () => void check();
  const onVisibility = () => {
    if (target.document.visibilityState === 'visible') void check();
  };
  target.addEventListener('focus', onFocus);
  target.document.addEventListener('visibilitychange', onVisibility);

  return () => {
    stopped = true;
    clearInterval(timer);
    target.removeEventListener('focus', onFocus);
    target.document.removeEventListener('visibilitychange', onVisibility);
  };
}
