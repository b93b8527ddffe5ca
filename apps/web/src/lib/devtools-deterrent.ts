/**
 * Developer-tools deterrent (spec §2): when the tools look open, the tab goes to about:blank.
 * It is a deterrent, not a protection, so it is deliberately conservative — a false positive
 * would throw a student out of a half-written paper:
 * - off when the URL carries `?dev=1` or `?devUser=kyfw` (remembered for the tab's session),
 *   when the server's configuration says `devtoolsDeterrent: false`, and for automated browsers
 *   (`navigator.webdriver`, e.g. headless Chromium in tests);
 * - detection uses the docked-devtools size gap: the outer window is more than 160 px wider OR
 *   taller than the viewport, but not both (a small viewport inside a large window, zoom or a
 *   side bar changes both or neither), and it must hold on two consecutive checks.
 */
import { readStorage, writeStorage } from './storage';

export const DEV_FLAG_SESSION_KEY = 'kyfw:devMode';
const GAP_THRESHOLD_PX = 160;
const CHECK_INTERVAL_MS = 1_000;

/** The dev query flags that switch the deterrent off. */
export function hasDevQueryFlag(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.get('dev') === '1' || query.get('devUser') === 'kyfw';
}

export function isDeterrentEnabled(options: {
  configEnabled: boolean;
  search: string;
  win?: Window;
}): boolean {
  const win = options.win ?? window;
  if (!options.configEnabled) return false;
  if (hasDevQueryFlag(options.search)) {
    writeStorage(DEV_FLAG_SESSION_KEY, '1', 'sessionStorage');
    return false;
  }
  if (readStorage(DEV_FLAG_SESSION_KEY, 'sessionStorage') === '1') return false;
  if (win.navigator.webdriver) return false;
  return true;
}

/** The size-gap heuristic for one moment. */
export function looksLikeDevtoolsOpen(
  win: Pick<Window, 'outerWidth' | 'outerHeight' | 'innerWidth' | 'innerHeight'>,
): boolean {
  const { outerWidth, outerHeight, innerWidth, innerHeight } = win;
  // Headless and some embedded browsers report 0 outer sizes.
  if (!outerWidth || !outerHeight || !innerWidth || !innerHeight) return false;
  const widthGap = outerWidth - innerWidth > GAP_THRESHOLD_PX;
  const heightGap = outerHeight - innerHeight > GAP_THRESHOLD_PX;
  return widthGap !== heightGap;
}

export interface DeterrentOptions {
  win?: Window;
  intervalMs?: number;
  onDetected?: () => void;
}

/** Starts the periodic check; returns the function that stops it. */
export function startDevtoolsDeterrent(options: DeterrentOptions = {}): () => void {
  const win = options.win ?? window;
  const onDetected = options.onDetected ?? (() => win.location.replace('about:blank'));
  let hits = 0;
  const timer = setInterval(() => {
    hits = looksLikeDevtoolsOpen(win) ? hits + 1 : 0;
    if (hits >= 2) {
      clearInterval(timer);
      onDetected();
    }
  }, options.intervalMs ?? CHECK_INTERVAL_MS);
  return () => clearInterval(timer);
}
