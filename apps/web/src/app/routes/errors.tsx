import { useEffect, useState } from 'react';
import { isRouteErrorResponse, Link, Navigate, useLocation, useRouteError } from 'react-router';
import { paths } from '../../config/paths';
import { isChunkLoadError, reloadWithGuard } from '../../lib/reload-guard';
import { usePageHead } from '../page-head';
import { shellTexts } from '../texts';

// These screens are part of the main bundle on purpose: they must render when chunks cannot load.

/** 404: "Page not found: {path}", title "Page Not Found" (spec §2). */
export function NotFoundPage({ path }: { path?: string }) {
  const location = useLocation();
  const shownPath = path ?? location.pathname;
  usePageHead({ title: shellTexts.notFoundTitle, bare: true });
  return (
    <section className="error-page">
      <div className="error-page__code">404</div>
      <h1 className="error-page__heading">{shellTexts.notFoundHeading}</h1>
      <p className="error-page__detail" data-testid="not-found-message">
        Page not found: {shownPath}
      </p>
      <p className="error-page__hint">{shellTexts.notFoundHint}</p>
      <Link to={paths.index} className="btn-primary">
        {shellTexts.backHome}
      </Link>
    </section>
  );
}

/** Any other status: title "Internal Server Error". */
export function ServerErrorPage({ status = 500 }: { status?: number }) {
  usePageHead({ title: shellTexts.serverErrorTitle, bare: true });
  return (
    <section className="error-page">
      <div className="error-page__code">{status}</div>
      <h1 className="error-page__heading">{shellTexts.serverErrorHeading}</h1>
      <p className="error-page__detail">Internal Server Error</p>
      <p className="error-page__hint">{shellTexts.serverErrorHint}</p>
      <div className="error-page__actions">
        <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
          {shellTexts.retry}
        </button>
        <Link to={paths.index} className="btn-ghost">
          {shellTexts.backHome}
        </Link>
      </div>
    </section>
  );
}

/** The error page of spec §2: 404 -> not found, otherwise server error; default status 500. */
export function ErrorPage({ status = 500, path }: { status?: number; path?: string }) {
  return status === 404 ? <NotFoundPage path={path} /> : <ServerErrorPage status={status} />;
}

/** Loader of the catch-all route: an unknown path is a 404 route error. */
export function notFoundLoader(): never {
  throw new Response(null, { status: 404, statusText: 'Not Found' });
}

function ChunkErrorReload() {
  // The reload guard (10 s ttl) keeps a chunk that keeps failing from looping reloads.
  const [state, setState] = useState<'pending' | 'reloading' | 'held'>('pending');
  useEffect(() => {
    setState(reloadWithGuard() ? 'reloading' : 'held');
  }, []);
  return state === 'held' ? (
    <ServerErrorPage />
  ) : (
    <div className="page-loading">{shellTexts.loadingPage}</div>
  );
}

/**
 * Route error boundary (spec §2): route error responses show the error page; a chunk that failed
 * to load reloads the page (guarded); any other application error sends the user to /.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error(error);
  }, [error]);
  if (isRouteErrorResponse(error)) return <ErrorPage status={error.status} path={location.pathname} />;
  if (isChunkLoadError(error)) return <ChunkErrorReload />;
  if (location.pathname !== paths.index) return <Navigate to={paths.index} replace />;
  return <ServerErrorPage />;
}
