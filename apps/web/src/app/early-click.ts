/**
 * The prerendered landing page (apps/web/scripts/prerender.ts) is on screen before the app's
 * scripts have run. Its loader holds a click made in that moment (by the element's tag, text and
 * place among elements alike) instead of letting it fall on a page that cannot answer yet. Once the
 * app has taken the page over (hydrated it, or rendered its own markup), this clicks the same
 * element of the live page, so a student's early 登录 / 注册 opens the dialog instead of doing
 * nothing.
 */
type HeldClick = { tag: string; text: string; index: number };

declare global {
  interface Window {
    __kyfwAppReady?: () => HeldClick | undefined;
  }
}

/**
 * Called once React has committed its first render into `container` (src/main.tsx): ends the
 * loader's holding and clicks the held element, if any.
 */
export function replayEarlyClick(container: HTMLElement): void {
  const ready = window.__kyfwAppReady;
  if (!ready) return; // not the prerendered page: index.html has no loader
  const held = ready();
  if (!held) return;
  // The first commit may still be a loading state: look again for a moment (up to 3 s).
  let tries = 60;
  const attempt = () => {
    const alike = [...container.querySelectorAll<HTMLElement>(held.tag)].filter(
      (element) => (element.textContent ?? '').trim() === held.text,
    );
    const element = alike[held.index];
    if (element) element.click();
    else if (--tries > 0) setTimeout(attempt, 50);
  };
  attempt();
}
