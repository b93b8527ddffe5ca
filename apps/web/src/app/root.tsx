import { type Location, Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/feedback/loading-overlay';
import { NavigationProgress } from '../components/feedback/navigation-progress';
import { ToastHost } from '../components/feedback/toast-host';
import { AuthDialogs } from '../features/auth';
import { LeaveConfirm } from './leave-confirm';
import { useRouteHead } from './page-head';

/**
 * One id per document load. A page opened by a fresh load (typing the address, a link from outside)
 * has no history entry of its own yet, and React Router gives every such first entry the same key
 * ('default'): its saved scroll position was restored on every later fresh load, scrolled further
 * down each time. Keyed by this load instead, a fresh load starts at the top, while back and forward
 * (and a reload, which keeps the entry's key) restore where the user was.
 */
const LOAD_ID = `load-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function scrollKey(location: Pick<Location, 'key'>): string {
  return location.key === 'default' ? LOAD_ID : location.key;
}

/** The root route: the page plus everything that floats over every page. */
export function RootShell() {
  useRouteHead();
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ToastHost />
      <LoadingOverlay />
      <AuthDialogs />
      <LeaveConfirm />
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
