import { type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { replayEarlyClick } from './app/early-click';
import { AppProvider, createQueryClient } from './app/provider';
import { createAppRouter } from './app/router';
import { startRuntimeGuards } from './app/runtime';
import { loadUserInfo } from './features/auth';
import { homeInfoQueryOptions } from './features/home';
import './styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const container: HTMLElement = root;
// `/` and `/check` come prerendered (apps/web/scripts/prerender.ts names the page on #root): the app
// hydrates that markup instead of building the page a second time. The markup is the page at its
// address without a query; with one (/check?orderId=…) the app renders its own page over it.
const prerenderedPath = container.getAttribute('data-prerendered');
const prerendered = prerenderedPath === window.location.pathname && window.location.search === '';

const queryClient = createQueryClient();

// On start: home info for the footer, and the user info when a token cookie exists (spec §2/§4).
// The prerendered page is hydrated as it was built, before any data: its footer asks for home info
// itself once hydrated, so no answer can arrive while React is still matching the markup.
if (!prerendered) void queryClient.prefetchQuery(homeInfoQueryOptions);
void loadUserInfo();
startRuntimeGuards();

/**
 * Once the first render is on the page (a parent's effect runs after its children's), hands a click
 * held by the landing page's loader over. A wrapper, not a sibling: the tree above the app stays the
 * one the page was prerendered with, so React's ids (antd's CSS variable scope) come out the same.
 */
function FirstCommit({ children }: { children: ReactNode }) {
  useEffect(() => replayEarlyClick(container), []);
  return children;
}

/**
 * The router (it matches the address and, for a lazy route such as /check, starts loading its
 * module) and the first render. Run in a task of its own after the entry's evaluation (issue 25):
 * on a phone the two together were one long task of the page's start.
 */
function start() {
  const router = createAppRouter();
  const app = (
    <StrictMode>
      <FirstCommit>
        <AppProvider queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProvider>
      </FirstCommit>
    </StrictMode>
  );

  // As a transition: React renders (or hydrates) the first page in slices of a few milliseconds
  // instead of one long task, so the page stays responsive meanwhile (Lighthouse's total blocking time).
  // Hydration waits for the page's route module when the route is loaded lazily (/check), so the first
  // render is that page and not the router's loading state.
  if (prerendered) {
    const hydrate = () => startTransition(() => void hydrateRoot(container, app));
    if (router.state.initialized) hydrate();
    else {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        hydrate();
      });
    }
  } else {
    startTransition(() => createRoot(container).render(app));
  }
}

setTimeout(start, 0);
