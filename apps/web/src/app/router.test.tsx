import { cleanup, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { act } from 'react';
import type { RouteObject } from 'react-router';
import { matchRoutes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../config/paths';
import {
  installDomShims,
  jsonResponse,
  messages,
  recordMessages,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../testing/test-utils';
import { routes } from './router';
import { RouteErrorBoundary } from './routes/errors';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => {
  resetAppState();
  stubFetch((url) =>
    url.includes('/getUserInfo')
      ? jsonResponse({ code: 0, message: 'ok', data: { id: 7, phoneNumber: '13800138000' } })
      : undefined,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('route table (spec §2)', () => {
  it.each(Object.entries(paths))('%s is served at %s', (name, path) => {
    const matches = matchRoutes(routes, path) ?? [];
    const ids = matches.map((m) => m.route.id);
    expect(ids).toContain(name);
  });

  it('takes several segments in the /industryNews catch-all', () => {
    const matches = matchRoutes(routes, '/industryNews/policy/2025/05/abc') ?? [];
    const leaf = matches[matches.length - 1];
    expect(leaf.route.id).toBe('industryNews');
    expect(leaf.params['*']).toBe('policy/2025/05/abc');
  });

  it('loads every page lazily but the landing page, which comes with the entry (it is sent prerendered)', () => {
    const pages = Object.keys(paths).filter((name) => !['user-order', 'user', 'ai'].includes(name));
    for (const name of pages) {
      const leaf = (matchRoutes(routes, paths[name as keyof typeof paths]) ?? []).find(
        (m) => m.route.id === name,
      );
      if (name === 'index') {
        expect(leaf?.route.lazy, name).toBeUndefined();
        expect(leaf?.route.Component, name).toBeTypeOf('function');
      } else {
        expect(leaf?.route.lazy, name).toBeTypeOf('function');
      }
    }
  });

  it('puts /login, /login/forgotPassword and /register in the login layout', () => {
    for (const path of [paths.login, paths['login-forgotPassword'], paths.register]) {
      const ids = (matchRoutes(routes, path) ?? []).map((m) => m.route.id);
      expect(ids).toContain('layout-login');
      expect(ids).not.toContain('layout-default');
    }
  });
});

function Broken(): never {
  throw new Error('boom');
}

describe('routing behaviour', () => {
  it('sends a logged-out visitor of a /user page home with the warning 请先登录', async () => {
    const toasts = recordMessages();
    const { router } = renderRoutes(routes, '/user/info');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(toasts).toContainEqual({ type: 'warning', content: '请先登录' });
  });

  it.each(['/user', '/user/order/check', '/user/password', '/user/paymentRecords'])(
    'guards %s',
    async (path) => {
      const { router } = renderRoutes(routes, path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    },
  );

  it('lets a visitor with a token cookie into the user area', async () => {
    Cookies.set('token', 't-1');
    const { router } = renderRoutes(routes, '/user/info');
    expect(await screen.findByRole('heading', { name: '个人信息' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/info');
    expect(messages()).toEqual([]);
  });

  it('re-checks the token when moving between /user pages', async () => {
    Cookies.set('token', 't-1');
    const { router } = renderRoutes(routes, '/user/info');
    await screen.findByRole('heading', { name: '个人信息' });
    Cookies.remove('token', { path: '/' });
    const toasts = recordMessages();
    await act(() => router.navigate('/user/address'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(toasts).toContainEqual({ type: 'warning', content: '请先登录' });
  });

  it('shows "Page not found: {path}" titled Page Not Found for an unknown path', async () => {
    renderRoutes(routes, '/no/such/page');
    expect((await screen.findByTestId('not-found-message')).textContent).toBe(
      'Page not found: /no/such/page',
    );
    await waitFor(() => expect(document.title).toBe('Page Not Found'));
  });

  it('sends the user home on any application error', async () => {
    const testRoutes: RouteObject[] = [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { path: '/', element: <p>home</p> },
          { path: '/broken', Component: Broken },
        ],
      },
    ];
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderRoutes(testRoutes, '/broken');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('home')).toBeTruthy();
    spy.mockRestore();
  });

  it('shows the server error page titled Internal Server Error for other route error statuses', async () => {
    const testRoutes: RouteObject[] = [
      {
        path: '/',
        ErrorBoundary: RouteErrorBoundary,
        loader: () => {
          throw new Response(null, { status: 503 });
        },
      },
    ];
    renderRoutes(testRoutes, '/');
    expect(await screen.findByText('503')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Internal Server Error'));
  });

  it('reloads the page once when a page chunk fails to load, and not again within 10 s', async () => {
    const chunkError = new TypeError('Failed to fetch dynamically imported module: /assets/check-x.js');
    const testRoutes: RouteObject[] = [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { path: '/', element: <p>home</p> },
          { path: '/check', lazy: () => Promise.reject(chunkError) },
        ],
      },
    ];
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderRoutes(testRoutes, '/check');
    // First failure: the guard lets a reload through (jsdom cannot navigate, the attempt is recorded).
    await waitFor(() => expect(sessionStorage.getItem('kyfw:lastReloadAt')).not.toBeNull());
    expect(await screen.findByText('页面加载中…')).toBeTruthy();
    cleanup();

    // Failing again right after the reload: the guard holds, the error page shows instead of a loop.
    renderRoutes(testRoutes, '/check');
    expect(await screen.findByText('Internal Server Error')).toBeTruthy();
    spy.mockRestore();
  });

  it('renders the landing page with entries to every service', async () => {
    renderRoutes(routes, '/');
    await screen.findByText('一站完成');
    for (const path of [
      '/check',
      '/reduction',
      '/reduction/aigc',
      '/ai',
      '/searchReport',
      '/technologySearch',
      '/industryNews',
    ]) {
      expect(document.querySelector(`main a[href="${path}"]`), path).not.toBeNull();
    }
  });
});
