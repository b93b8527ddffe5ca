import { BUILD_ID, getPublicConfig } from '../config/env';
import { isDeterrentEnabled, startDevtoolsDeterrent } from '../lib/devtools-deterrent';
import { reloadWithGuard } from '../lib/reload-guard';
import { startVersionPolling } from '../lib/version-check';

/**
 * Page-level guards that run outside React (spec §2):
 * - a lazily loaded chunk that fails to load (Vite's `vite:preloadError`, e.g. after a deploy
 *   removed old hashed files) reloads the page, at most once per 10 s;
 * - build-metadata polling reloads the page when a new build is deployed;
 * - the developer-tools deterrent.
 * Returns a function that stops them (tests, hot reload).
 */
export function startRuntimeGuards(): () => void {
  const stops: (() => void)[] = [];

  const onPreloadError = (event: Event) => {
    if (reloadWithGuard()) event.preventDefault();
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  stops.push(() => window.removeEventListener('vite:preloadError', onPreloadError));

  if (BUILD_ID !== 'dev') {
    stops.push(startVersionPolling({ currentBuildId: BUILD_ID, onNewBuild: () => reloadWithGuard() }));
  }

  const config = getPublicConfig();
  if (isDeterrentEnabled({ configEnabled: config.devtoolsDeterrent, search: window.location.search })) {
    stops.push(startDevtoolsDeterrent());
  }

  return () => {
    for (const stop of stops) stop();
  };
}
