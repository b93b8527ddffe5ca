import { act, cleanup, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { uiStore } from '../../stores/ui-store';
import {
  installDomShims,
  jsonResponse,
  makeUserInfo,
  messages,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../../testing/test-utils';
import { useRequireLogin } from './hooks/use-require-login';
import { loadUserInfo, sessionStore, setUserInfo } from './stores/session-store';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function routerWrapper(path: string) {
  return ({ children }: { children: ReactNode }) => {
    const router = createMemoryRouter([{ path: '*', element: children }], { initialEntries: [path] });
    return <RouterProvider router={router} />;
  };
}

describe('useRequireLogin (spec §4)', () => {
  it('warns 请先登录！ and opens the login dialog when logged out away from home', () => {
    const action = vi.fn();
    const { result } = renderHook(() => useRequireLogin(), { wrapper: routerWrapper('/check') });
    let ran = true;
    act(() => {
      ran = result.current(action);
    });
    expect(ran).toBe(false);
    expect(action).not.toHaveBeenCalled();
    expect(messages()).toEqual([{ type: 'warning', content: '请先登录！' }]);
    expect(uiStore.getState().loginModal).toBe(true);
  });

  it('only warns on the home page', () => {
    const { result } = renderHook(() => useRequireLogin(), { wrapper: routerWrapper('/') });
    act(() => {
      result.current(() => {});
    });
    expect(messages()).toEqual([{ type: 'warning', content: '请先登录！' }]);
    expect(uiStore.getState().loginModal).toBe(false);
  });

  it('runs the action when logged in', () => {
    Cookies.set('token', 't-1');
    setUserInfo(makeUserInfo({ id: '5' }));
    const action = vi.fn();
    const { result } = renderHook(() => useRequireLogin(), { wrapper: routerWrapper('/check') });
    act(() => {
      result.current(action);
    });
    expect(action).toHaveBeenCalledTimes(1);
    expect(messages()).toEqual([]);
  });
});

describe('session (spec §4)', () => {
  it('loads the user info with the token and stores the whole response', async () => {
    Cookies.set('token', 't-1');
    const fetchMock = stubFetch(() =>
      jsonResponse({ code: 0, message: 'ok', data: { id: 9, phoneNumber: '13900000000', extra: 'x' } }),
    );
    await loadUserInfo();
    expect(sessionStore.getState().userInfo).toEqual({ id: 9, phoneNumber: '13900000000', extra: 'x' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/kyfw/web/v1/getUserInfo');
    expect(new Headers(init.headers).get('token')).toBe('t-1');
  });

  it('clears the token when the user-info call fails', async () => {
    Cookies.set('token', 'stale');
    stubFetch(() => jsonResponse({ code: 1003, message: '请先登录', data: null }));
    expect(await loadUserInfo()).toBeNull();
    expect(Cookies.get('token')).toBeUndefined();
    expect(sessionStore.getState()).toEqual({ userInfo: null, checked: true });
    expect(messages()).toEqual([]);
  });

  it('does not call the server without a token', async () => {
    const fetchMock = stubFetch();
    await loadUserInfo();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(sessionStore.getState().checked).toBe(true);
  });

  it('/logout revokes the session on the server, clears token and user info and goes home', async () => {
    Cookies.set('token', 't-9');
    setUserInfo(makeUserInfo({ id: '9' }));
    const fetchMock = stubFetch();
    const { router } = renderRoutes(routes, '/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    // The session ends once home is reached (no 请先登录 from the page being left).
    await waitFor(() => expect(Cookies.get('token')).toBeUndefined());
    const logoutCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/user/logout'));
    expect(logoutCall).toBeDefined();
    expect(new Headers((logoutCall?.[1] as RequestInit | undefined)?.headers).get('token')).toBe('t-9');
    expect(sessionStore.getState().userInfo).toBeNull();
    // The user is told, once.
    const toasts = Object.values(uiStore.getState().msgMap).map((m) => [m.type, m.content]);
    expect(toasts).toEqual([['success', '已退出登录']]);
  });
});

describe('leave confirmation (spec §2)', () => {
  function fireBeforeUnload(): Event {
    const event = new Event('beforeunload', { cancelable: true });
    // jsdom's Event.returnValue is the legacy boolean; browsers' BeforeUnloadEvent has a string.
    Object.defineProperty(event, 'returnValue', { value: '', writable: true });
    window.dispatchEvent(event);
    return event;
  }

  it.each(['/ai/dissertation', '/ai/proposal', '/ai/assignment', '/ai/journalsReviewed'])(
    'asks before leaving %s once it holds unsaved input, not while empty',
    async (path) => {
      stubFetch();
      renderRoutes(routes, path);
      const topic = await screen.findByLabelText('论文主题');
      expect(fireBeforeUnload().defaultPrevented).toBe(false);
      fireEvent.change(topic, { target: { value: '城市社区养老服务' } });
      await waitFor(() => expect(fireBeforeUnload().defaultPrevented).toBe(true));
      const event = fireBeforeUnload();
      expect((event as BeforeUnloadEvent).returnValue).toMatch(/确定要离开吗/);
      fireEvent.change(topic, { target: { value: '' } });
      await waitFor(() => expect(fireBeforeUnload().defaultPrevented).toBe(false));
    },
  );

  it('does not ask elsewhere', async () => {
    stubFetch();
    renderRoutes(routes, '/ai');
    await screen.findByText('选择写作类型');
    expect(fireBeforeUnload().defaultPrevented).toBe(false);
  });
});

describe('terms and privacy viewer', () => {
  it('opens the full texts with the promised statements', async () => {
    stubFetch();
    renderRoutes(routes, '/');
    fireEvent.click((await screen.findAllByRole('button', { name: '《用户服务条款》' }))[0]);
    const terms = await screen.findByRole('dialog');
    const termsText = terms.textContent ?? '';
    expect(termsText).toContain('2025-05-28 09:52:01');
    expect(termsText).toContain('不构成对论文是否存在抄袭');
    expect(termsText).toContain('连续十二（12）个月未登录');
    expect(termsText).toContain('自行申请注销账号');
    expect(termsText).toContain('不会被加入本网站的比对库');

    fireEvent.click(screen.getByRole('button', { name: '我已阅读' }));
    fireEvent.click(screen.getAllByRole('button', { name: '《隐私政策》' })[0]);
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toContain('隐私政策'));
    const privacyText = screen.getByRole('dialog').textContent ?? '';
    expect(privacyText).toContain('匿名访客身份浏览');
    expect(privacyText).toContain('不收集任何可以识别您身份的个人信息');
    expect(privacyText).toContain('均存储在中国大陆境内');
    for (const field of [
      '真实姓名',
      '单位名称',
      '性别',
      '微信账号',
      '委托单位',
      '收件人姓名',
      '纳税人识别号',
      '发票邮箱',
      '支付时间',
      '设备型号',
    ]) {
      expect(privacyText).toContain(field);
    }
  });
});
