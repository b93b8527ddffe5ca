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
  /**
   * antd's styles for that markup: its CSS variables as antd's SSR style elements, and the rules of
   * every component with antd's cache map in one plain stylesheet (see `staticStyles`).
   */
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
  return { html, styles: staticStyles(cache) };
}

/** antd's marker of its cache map: the element that says the styles were inlined, not static. */
const INLINE_CACHE_MAP = /<style[^>]*data-ant-cssinjs-cache-path[^>]*>[\s\S]*?<\/style>/g;

/**
 * antd's styles as a static stylesheet, the way antd's own static extraction ships them (issue 25):
 * the rules of the components on the page and the cache map (`.data-ant-cssinjs-cache-path`, which
 * paths the sheet holds) in one plain `<style>`. Hydrating, antd's style cache finds each
 * component's path in that map and, the styles being "from a CSS file", takes them as they are: it
 * no longer finds and reads back the text of each SSR style element (`innerHTML`, 239 KB on
 * /check) and compares it again before "inserting" it. The CSS variables stay antd's SSR style
 * elements: antd computes them at runtime anyway and finds its elements by their hash, where a plain
 * sheet would make it insert them a second time.
 */
function staticStyles(cache: ReturnType<typeof createCache>): string {
  const variables = extractStyle(cache, { types: ['token', 'cssVar'] }).replace(INLINE_CACHE_MAP, '');
  const rules = extractStyle(cache, { types: ['style'], plain: true });
  return `${variables}<style data-kyfw-antd-static>${rules}</style>`;
}
