// Build-time rendering of the landing page `/` (apps/web/scripts/prerender.ts runs it after the
// client build): the page as a visitor who is not logged in sees it before any data has loaded, with
// the antd styles it uses, so a phone paints it from the HTML before the JavaScript has arrived
// (issue 12, Lighthouse). The app then hydrates this markup (src/main.tsx) instead of building the
// page again: the tree here is the app's own for `/` (root shell, default layout, landing page) and
// the antd styles go out as antd's SSR style tags, which the app's style cache reads back instead
// of generating and inserting them again.
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { DefaultLayout } from '../app/layouts/default-layout';
import { AppProvider, createQueryClient } from '../app/provider';
import { RootShell } from '../app/root';
import LandingPage from '../app/routes/landing';

export interface Prerendered {
  /** The markup that goes inside #root. */
  html: string;
  /** antd's style elements for that markup (CSS-in-JS rules, CSS variables, the cache map). */
  styles: string;
}

/** `/` as a visitor who is not logged in sees it before any data has loaded. */
export async function renderLanding(): Promise<Prerendered> {
  // The same nesting as the app's routes (src/app/router.tsx) on the way to the landing page; error
  // boundaries and ids render nothing of their own.
  const handler = createStaticHandler([
    {
      path: '/',
      Component: RootShell,
      children: [
        { Component: DefaultLayout, children: [{ children: [{ index: true, Component: LandingPage }] }] },
      ],
    },
  ]);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`the landing route answered ${context.status}`);
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
