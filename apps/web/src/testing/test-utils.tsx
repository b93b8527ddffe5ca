import type { DataOf, Endpoint, UserInfo } from '@kyfw/contracts';
import { cleanup, configure, render } from '@testing-library/react';
import Cookies from 'js-cookie';
import type { RouteObject } from 'react-router';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../app/provider';
import { sessionStore } from '../features/auth';
import { createInitialUiState, uiStore } from '../stores/ui-store';

// Rendering the whole app in jsdom (antd's CSS-in-JS included) is slow on a cold start.
configure({ asyncUtilTimeout: 15_000 });

/** jsdom lacks matchMedia (antd's responsive helpers), ResizeObserver (Tabs) and scrollTo (ScrollRestoration). */
export function installDomShims(): void {
  window.scrollTo = () => {};
  if (!('ResizeObserver' in window)) {
    // antd's Tabs measure themselves; jsdom has no layout, so observing does nothing.
    class NoopResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { configurable: true, value: NoopResizeObserver });
  }
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  }
}

/** Fresh cookies, storage and stores for every test. */
export function resetAppState(): void {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  localStorage.clear();
  sessionStorage.clear();
  uiStore.setState(createInitialUiState());
  sessionStore.setState({ userInfo: null, checked: false });
}

/**
 * A success answer of `endpoint` as the server sends it. `data` is typed from the contract and
 * parsed by its schema, so a fake that drifts from the wire fails the typecheck and the test.
 */
export function apiAnswer<E extends Endpoint>(endpoint: E, data: DataOf<E>, message = 'success'): Response {
  if (endpoint.data === 'file') throw new Error(`${endpoint.path} answers a file, not the envelope`);
  return jsonResponse({ code: 0, message, data: endpoint.data.parse(data) });
}

/** A user as /getUserInfo answers it (contracts' userInfoSchema), with `fields` changed. */
export function makeUserInfo(fields: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 'u-1',
    phoneNumber: '13912345678',
    wxOpenId: null,
    hasPassword: true,
    realName: null,
    unitName: null,
    gender: null,
    major: null,
    education: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    lastLoginAt: '2026-11-26T08:00:00.000Z',
    entitlements: [],
    entitlementsEarnedBefore: false,
    ...fields,
  };
}

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
}

/** A fake fetch answering every API call with an empty success envelope unless `handler` answers. */
export function stubFetch(handler?: (url: string, init: RequestInit) => Response | undefined) {
  const fake = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return handler?.(url, init) ?? jsonResponse({ code: 0, message: 'ok', data: null });
  });
  vi.stubGlobal('fetch', fake);
  return fake;
}

export function messages(): { type: string; content: string }[] {
  return Object.values(uiStore.getState().msgMap).map(({ type, content }) => ({ type, content }));
}

/**
 * Records every toast added from now on (the store drops each after 3 s, which a slow test run
 * can outlast). Returns the live list.
 */
export function recordMessages(): { type: string; content: string }[] {
  const seen = new Set(Object.keys(uiStore.getState().msgMap));
  const recorded: { type: string; content: string }[] = [];
  const unsubscribe = uiStore.subscribe(() => {
    for (const msg of Object.values(uiStore.getState().msgMap)) {
      if (seen.has(msg.id)) continue;
      seen.add(msg.id);
      recorded.push({ type: msg.type, content: msg.content });
    }
  });
  afterEach(unsubscribe);
  return recorded;
}

/**
 * The usual set-up of a page test, in one call at the top of the file: a 30 s test timeout (the
 * whole app in jsdom), the DOM shims, a fresh app state before each test, and after each the
 * rendered tree unmounted and stubbed globals (fetch) restored.
 */
export function setUpPageTests(): void {
  vi.setConfig({ testTimeout: 30_000 });
  beforeAll(() => installDomShims());
  beforeEach(() => resetAppState());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** Renders routes in a memory router inside the real providers. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const utils = render(
    <AppProvider queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, ...utils };
}
