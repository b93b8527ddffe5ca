import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { Outlet } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiActions, uiStore } from '../../../stores/ui-store';
import { installDomShims, renderRoutes, resetAppState } from '../../../testing/test-utils';
import LoginDialog from './login-dialog';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Shell() {
  return (
    <>
      <Outlet />
      <LoginDialog />
    </>
  );
}

const routes: RouteObject[] = [
  {
    Component: Shell,
    children: [
      { path: '/', element: <p>首页内容</p> },
      { path: '/register', element: <p>注册页</p> },
      { path: '/login/forgotPassword', element: <p>找回密码页</p> },
    ],
  },
];

function activeTab(): string | null | undefined {
  return document.querySelector('.ant-tabs-tab-active')?.textContent;
}

describe('login dialog', () => {
  it('opens on the WeChat tab by default and has both tabs', async () => {
    renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    await screen.findByRole('tab', { name: '微信登录' });
    expect(screen.getByRole('tab', { name: '账号密码登录' })).toBeTruthy();
    expect(activeTab()).toBe('微信登录');
  });

  it('remembers the last chosen tab in local storage for the next time', async () => {
    const first = renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    fireEvent.click(await screen.findByRole('tab', { name: '账号密码登录' }));
    await waitFor(() => expect(activeTab()).toBe('账号密码登录'));
    expect(localStorage.getItem('loginType')).toBe('account');
    first.unmount();

    // A new page load: the store starts from local storage.
    resetAppStateKeepingStorage();
    renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    await screen.findByRole('tab', { name: '账号密码登录' });
    expect(activeTab()).toBe('账号密码登录');
  });

  it('closes with its close button', async () => {
    renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    fireEvent.click(await screen.findByRole('button', { name: /关闭/ }));
    expect(uiStore.getState().loginModal).toBe(false);
  });

  it.each([
    ['注册账号', '/register'],
    ['忘记密码？', '/login/forgotPassword'],
  ])('follows %s to %s and closes 300 ms later', async (label, path) => {
    const { router } = renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    const link = await screen.findByRole('link', { name: label });
    vi.useFakeTimers();
    fireEvent.click(link);
    expect(router.state.location.pathname).toBe(path);
    act(() => vi.advanceTimersByTime(299));
    expect(uiStore.getState().loginModal).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(uiStore.getState().loginModal).toBe(false);
  });

  it('shows the terms and privacy links', async () => {
    renderRoutes(routes, '/');
    act(() => uiActions.openLoginModal());
    expect(await screen.findByRole('button', { name: '《用户服务条款》' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '《隐私政策》' })).toBeTruthy();
  });
});

function resetAppStateKeepingStorage() {
  const saved = localStorage.getItem('loginType');
  resetAppState();
  if (saved) localStorage.setItem('loginType', saved);
  uiStore.setState({ loginType: saved === 'account' ? 'account' : 'wx' });
}
