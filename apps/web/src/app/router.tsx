import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { createBrowserRouter, Navigate } from 'react-router';
import { paths } from '../config/paths';
import { requireAuthLoader } from './guards';
import { DefaultLayout } from './layouts/default-layout';
import { LoginLayout } from './layouts/login-layout';
import { RootShell } from './root';
import { NotFoundPage, notFoundLoader, RouteErrorBoundary } from './routes/errors';
import LandingPage from './routes/landing';
import { shellTexts } from './texts';

type PageModule = { default: ComponentType };

/** A lazily loaded page: its module is its own chunk, fetched on first navigation. */
function page(load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

function BootFallback() {
  return <div className="page-loading page-loading--boot">{shellTexts.loadingPage}</div>;
}

/** Children paths are relative to their parent; ids are the spec's route names. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootShell,
    ErrorBoundary: RouteErrorBoundary,
    // Shown while the first page's chunk loads.
    HydrateFallback: BootFallback,
    children: [
      {
        id: 'layout-default',
        Component: DefaultLayout,
        children: [
          {
            // Errors of pages render inside the layout (header and footer stay).
            id: 'pages-default',
            ErrorBoundary: RouteErrorBoundary,
            children: [
              // Loaded with the entry, not lazily: the server sends `/` prerendered (scripts/prerender.ts)
              // and the app's first render must be this page, not a loading state over it.
              { id: 'index', index: true, Component: LandingPage },
              { id: 'aboutUs', path: 'aboutUs', ...page(() => import('./routes/about-us')) },
              {
                id: 'ai',
                path: 'ai',
                ...page(() => import('./routes/ai/ai-layout')),
                children: [
                  { id: 'ai-index', index: true, ...page(() => import('./routes/ai/ai-home')) },
                  {
                    id: 'ai-assignment',
                    path: 'assignment',
                    ...page(() => import('./routes/ai/assignment')),
                  },
                  {
                    id: 'ai-dissertation',
                    path: 'dissertation',
                    ...page(() => import('./routes/ai/dissertation')),
                  },
                  {
                    id: 'ai-journalsReviewed',
                    path: 'journalsReviewed',
                    ...page(() => import('./routes/ai/journals-reviewed')),
                  },
                  { id: 'ai-proposal', path: 'proposal', ...page(() => import('./routes/ai/proposal')) },
                ],
              },
              { id: 'check', path: 'check', ...page(() => import('./routes/check')) },
              { id: 'check-verify', path: 'check/verify', ...page(() => import('./routes/check-verify')) },
              {
                id: 'check-report',
                path: 'check/report/:orderId',
                loader: requireAuthLoader,
                ...page(() => import('./routes/check-report')),
              },
              { id: 'reduction', path: 'reduction', ...page(() => import('./routes/reduction')) },
              {
                id: 'reduction-aigc',
                path: 'reduction/aigc',
                ...page(() => import('./routes/reduction-aigc')),
              },
              { id: 'searchReport', path: 'searchReport', ...page(() => import('./routes/search-report')) },
              {
                id: 'technologySearch',
                path: 'technologySearch',
                ...page(() => import('./routes/technology-search')),
              },
              {
                id: 'technologySearch-downloadService',
                path: 'technologySearch/downloadService',
                ...page(() => import('./routes/technology-search-download-service')),
              },
              {
                id: 'technologySearch-techEvaluation',
                path: 'technologySearch/techEvaluation',
                ...page(() => import('./routes/technology-search-tech-evaluation')),
              },
              // /industryNews and /industryNews/{industryNews}: the splat takes one or more segments.
              { id: 'industryNews', path: 'industryNews/*', ...page(() => import('./routes/industry-news')) },
              {
                id: 'user',
                path: 'user',
                loader: requireAuthLoader,
                // Re-check on every navigation inside /user, not only on entering it.
                shouldRevalidate: () => true,
                ...page(() => import('./routes/user/user-layout')),
                children: [
                  { id: 'user-index', index: true, element: <Navigate to={paths['user-info']} replace /> },
                  { id: 'user-address', path: 'address', ...page(() => import('./routes/user/address')) },
                  { id: 'user-info', path: 'info', ...page(() => import('./routes/user/info')) },
                  { id: 'user-invoice', path: 'invoice', ...page(() => import('./routes/user/invoice')) },
                  {
                    id: 'user-order',
                    path: 'order',
                    ...page(() => import('./routes/user/order/order-layout')),
                    children: [
                      {
                        id: 'user-order-index',
                        index: true,
                        element: <Navigate to={paths['user-order-write']} replace />,
                      },
                      {
                        id: 'user-order-check',
                        path: 'check',
                        ...page(() => import('./routes/user/order/check')),
                      },
                      {
                        id: 'user-order-reduction',
                        path: 'reduction',
                        ...page(() => import('./routes/user/order/reduction')),
                      },
                      {
                        id: 'user-order-commission',
                        path: 'commission',
                        ...page(() => import('./routes/user/order/commission')),
                      },
                      {
                        id: 'user-order-write',
                        path: 'write',
                        ...page(() => import('./routes/user/order/write')),
                      },
                    ],
                  },
                  { id: 'user-password', path: 'password', ...page(() => import('./routes/user/password')) },
                  {
                    id: 'user-paymentRecords',
                    path: 'paymentRecords',
                    ...page(() => import('./routes/user/payment-records')),
                  },
                ],
              },
              // Unknown paths: a 404 route error, shown by the error boundary as "Page not found: {path}".
              { id: 'notFound', path: '*', loader: notFoundLoader, Component: NotFoundPage },
            ],
          },
        ],
      },
      {
        id: 'layout-login',
        Component: LoginLayout,
        children: [
          {
            id: 'pages-login',
            ErrorBoundary: RouteErrorBoundary,
            children: [
              { id: 'login', path: 'login', ...page(() => import('./routes/login')) },
              {
                id: 'login-forgotPassword',
                path: 'login/forgotPassword',
                ...page(() => import('./routes/login-forgot-password')),
              },
              { id: 'register', path: 'register', ...page(() => import('./routes/register')) },
            ],
          },
        ],
      },
      { id: 'logout', path: 'logout', ...page(() => import('./routes/logout')) },
      // The operator console (/admin/*): one lazily loaded chunk with its own layout and routes; the
      // public site's bundles do not include it. The server refuses every call without a staff
      // session and role.
      { id: 'admin', path: 'admin/*', ...page(() => import('./routes/admin')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
