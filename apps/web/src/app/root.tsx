import { Outlet, ScrollRestoration } from 'react-router';
import { LoadingOverlay } from '../components/feedback/loading-overlay';
import { NavigationProgress } from '../components/feedback/navigation-progress';
import { ToastHost } from '../components/feedback/toast-host';
import { AuthDialogs } from '../features/auth';
import { LeaveConfirm } from './leave-confirm';

/** The root route: the page plus everything that floats over every page. */
export function RootShell() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ToastHost />
      <LoadingOverlay />
      <AuthDialogs />
      <LeaveConfirm />
      <ScrollRestoration />
    </>
  );
}
