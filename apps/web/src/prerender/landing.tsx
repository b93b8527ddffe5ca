// Build-time rendering of the landing page `/` (apps/web/scripts/prerender.ts runs it after the
// client build): its header and content as static HTML, with the antd styles they use, so a phone
// paints the page from the HTML and its stylesheet before the JavaScript has arrived (issue 12,
// Lighthouse). The app then renders the same page over it (createRoot; the landing route is loaded
// with the entry, so its first render is this page, not a loading state).
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { DefaultLayout } from '../app/layouts/default-layout';
import { AppProvider, createQueryClient } from '../app/provider';
import LandingPage from '../app/routes/landing';

export interface Prerendered {
  /** The markup that goes inside #root. */
  html: string;
  /** The antd CSS-in-JS rules the markup uses (plain CSS). */
  css: string;
}

/** `/` as a visitor who is not logged in sees it before any data has loaded. */
export async function renderLanding(): Promise<Prerendered> {
  const handler = createStaticHandler([
    { path: '/', Component: DefaultLayout, children: [{ index: true, Component: LandingPage }] },
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
  return { html, css: extractStyle(cache, { plain: true }) };
}
