// Build-time rendering of the pages sent prerendered (apps/web/scripts/prerender.ts runs it after
// the client build): `/` and `/check` as a visitor who is not logged in sees them before any data has
// loaded, with the antd styles they use, so a phone paints them from the HTML before the JavaScript
// has arrived (issue 12, Lighthouse). The app then hydrates this markup (src/main.tsx) instead of
// building the page again: the tree here is the app's own for those routes (root shell, default
// layout, page) and the antd styles go out as antd's SSR style tags, which the app's style cache
// reads back instead of generating and inserting them again.
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { DefaultLayout } from '../app/layouts/default-layout';
import { AppProvider, createQueryClient } from '../app/provider';
import { RootShell } from '../app/root';
import CheckPage from '../app/routes/check';
import LandingPage from '../app/routes/landing';

export interface Prerendered {
  /** The markup that goes inside #root. */
  html: string;
  /** antd's style elements for that markup (CSS-in-JS rules, CSS variables, the cache map). */
  styles: string;
}

const PAGES: Record<string, ComponentType> = { '/': LandingPage, '/check': CheckPage };

/** `path` as a visitor who is not logged in sees it before any data has loaded. */
export async function renderPage(path: string): Promise<Prerendered> {
  const Page = PAGES[path];
  if (!Page) throw new Error(`no prerendered page for ${path}`);
  // The same nesting as the app's routes (src/app/router.tsx) on the way to the page; error
  // boundaries and ids render nothing of their own.
  const handler = createStaticHandler([
    {
      path: '/',
      Component: RootShell,
      children: [
        {
          Component: DefaultLayout,
          children: [
            {
              children: [
                path === '/' ? { index: true, Component: Page } : { path: path.slice(1), Component: Page },
              ],
            },
          ],
        },
      ],
    },
  ]);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const cache = createCache();
  const html = renderToString(
    <StyleProvider cache={cache}>
      <AppProvider queryClient={createQueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StyleProvider>,
  );
  return { html, styles: extractStyle(cache) };
}
