import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { SiteHeader } from '../../components/layout/site-header';
import { SiteFooter } from '../../features/home';

/** The default layout: header with logo, service navigation and account; page; footer. */
export function DefaultLayout() {
  return (
    <div className="app">
      <SiteHeader />
      <main className="app-main">
        <Outlet />
      </main>
      {/* Hydrated in a pass of its own after the page (prerendered pages, src/main.tsx). */}
      <Suspense>
        <SiteFooter />
      </Suspense>
    </div>
  );
}
