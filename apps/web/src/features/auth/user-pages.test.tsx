import { md5Hex } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { uiStore } from '../../stores/ui-store';
import {
  installDomShims,
  jsonResponse,
  makeUserInfo,
  renderRoutes,
  resetAppState,
  stubFetch,
} from '../../testing/test-utils';
import { sessionStore } from './stores/session-store';
import type { UserInfo } from './types';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

interface Call {
  path: string;
  body: Record<string, unknown>;
}

function loggedInAs(user: UserInfo, routesAnswer: Record<string, () => unknown> = {}) {
  Cookies.set('token', 't-1');
  sessionStore.setState({ userInfo: user, checked: true });
  const calls: Call[] = [];
  stubFetch((url, init) => {
    const path = new URL(url, 'http://localhost').pathname.replace('/kyfw/web/v1', '');
    calls.push({ path, body: typeof init.body === 'string' ? JSON.parse(init.body) : {} });
    const answer = routesAnswer[path]?.();
    if (answer instanceof Response) return answer;
    return jsonResponse(answer ?? { code: 0, message: 'ok', data: path === '/getUserInfo' ? user : null });
  });
  return calls;
}

const phoneUser: UserInfo = makeUserInfo();
const wxUser: UserInfo = makeUserInfo({
  id: 'u-2',
  phoneNumber: null,
  wxOpenId: 'o_***x',
  hasPassword: false,
});

describe('/user/password', () => {
  it('explains to an account without phone why there is no password, with a 绑定手机号 button', async () => {
    loggedInAs(wxUser);
    renderRoutes(routes, '/user/password');
    expect(await screen.findByText(/尚未绑定手机号/)).toBeTruthy();
    expect(screen.queryByPlaceholderText('请输入当前使用的密码')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: '绑定手机号' })[0]);
    expect(uiStore.getState().bindPhoneModal).toBe(true);
  });

  it('changes the password with both sent as MD5 and says other sessions ended', async () => {
    const calls = loggedInAs(phoneUser, {
      '/websiteUser/passwordChange': () => ({ code: 0, message: '密码修改成功，请牢记新密码', data: null }),
    });
    renderRoutes(routes, '/user/password');
    fireEvent.change(await screen.findByPlaceholderText('请输入当前使用的密码'), {
      target: { value: 'old-pass' },
    });
    fireEvent.change(screen.getByPlaceholderText('请输入新密码（6-50位）'), {
      target: { value: 'new-pass' },
    });
    fireEvent.change(screen.getByPlaceholderText('请再次输入密码'), { target: { value: 'new-pass' } });
    fireEvent.click(screen.getByRole('button', { name: '确认修改' }));
    expect(await screen.findByText(/其他设备上的登录已失效/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/websiteUser/passwordChange')?.body).toEqual({
      oldPassWord: md5Hex('old-pass'),
      passWord: md5Hex('new-pass'),
    });
  });
});

describe('/user/info', () => {
  it('shows bindings and the entitlements: used, or 即将开放 while their service does not exist', async () => {
    loggedInAs({
      ...phoneUser,
      wxOpenId: 'o_***x',
      entitlements: [
        {
          kind: 'ai_writing_trial',
          grantedBy: 'phone_register',
          grantedAt: '2026-03-02T02:00:00.000Z',
          usedAt: null,
          available: false,
          comingSoon: true,
        },
        {
          kind: 'free_check',
          grantedBy: 'phone_register',
          grantedAt: '2026-03-02T02:00:00.000Z',
          usedAt: '2026-03-03T02:00:00.000Z',
          available: false,
          comingSoon: false,
        },
      ],
    });
    renderRoutes(routes, '/user/info');
    expect((await screen.findByTestId('binding-phone')).textContent).toBe('139****5678');
    expect(screen.getByTestId('binding-wechat').textContent).toBe('已绑定');
    const items = (await screen.findAllByRole('listitem')).map((li) => li.textContent ?? '');
    const check = items.find((text) => text.includes('一次免费查重'));
    const trial = items.find((text) => text.includes('AI写作体验'));
    expect(check).toContain('已使用');
    expect(trial).toContain('即将开放');
    expect(trial).not.toContain('可使用');
  });

  it('never tells an account to bind for the free services; says so when its phone had them before', async () => {
    loggedInAs({
      ...phoneUser,
      entitlements: [
        {
          kind: 'free_check',
          grantedBy: 'phone_register',
          grantedAt: '2026-03-02T02:00:00.000Z',
          usedAt: null,
          available: true,
          comingSoon: false,
        },
      ],
    });
    renderRoutes(routes, '/user/info');
    const items = (await screen.findAllByRole('listitem')).map((li) => li.textContent ?? '');
    expect(items.find((text) => text.includes('一次免费查重'))).toContain('可使用');
    expect(screen.queryByText(/绑定.*后.*免费/)).toBeNull();
    cleanup();

    // The same phone on a new account after deleting one that earned them: no promise, no bind button.
    loggedInAs({ ...phoneUser, entitlementsEarnedBefore: true });
    renderRoutes(routes, '/user/info');
    expect(
      await screen.findByText(
        '您的手机号或微信此前已在其他账号（已注销或关闭）领取过免费权益。免费权益每个手机号、每个微信仅限一次，本账号不再赠送。',
        { exact: false },
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/可获得一次免费查重/)).toBeNull();
  });

  it('deletes an account with a phone by an SMS code of type 4, then ends the session at home', async () => {
    const calls = loggedInAs(phoneUser, {
      '/sendCheckCode': () => ({ code: 0, message: '短信发送成功', data: null }),
      '/websiteUser/deleteAccount': () => ({ code: 0, message: '账号已注销', data: { deleted: true } }),
    });
    const { router } = renderRoutes(routes, '/user/info');
    fireEvent.click(await screen.findByRole('button', { name: /注销账号/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('依法保留');
    expect(dialog.textContent).toContain('如已领取过注册赠送的免费权益，新账号不会再次获得');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/sendCheckCode')?.body).toEqual({
        phoneNumber: '13912345678',
        type: '4',
      }),
    );
    fireEvent.change(screen.getByPlaceholderText('6位数字验证码'), { target: { value: '123456' } });
    const confirm = screen.getByRole('button', { name: '确认注销' });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('checkbox', { name: /我已了解/ }));
    await waitFor(() => expect(confirm).toHaveProperty('disabled', false));
    fireEvent.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(Cookies.get('token')).toBeUndefined());
    expect(calls.find((c) => c.path === '/websiteUser/deleteAccount')?.body).toEqual({ checkCode: '123456' });
    expect(sessionStore.getState().userInfo).toBeNull();
  });

  it('exports the data as the file the server names', async () => {
    const created: Blob[] = [];
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:export';
    };
    URL.revokeObjectURL = () => {};
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('我的数据.json');
    });
    loggedInAs(phoneUser, {
      '/websiteUser/exportData': () =>
        new Response('{"account":{}}', {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="my-data.json"; filename*=UTF-8''%E6%88%91%E7%9A%84%E6%95%B0%E6%8D%AE.json`,
          },
        }),
    });
    renderRoutes(routes, '/user/info');
    fireEvent.click(await screen.findByRole('button', { name: /导出我的数据/ }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    expect(await created[0]?.text()).toBe('{"account":{}}');
    clicked.mockRestore();
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });
});

describe('/register', () => {
  it('lists what registration gives as the server says: 可使用 or 即将开放, never 全部服务', async () => {
    stubFetch((url) => {
      const path = new URL(url, 'http://localhost').pathname.replace('/kyfw/web/v1', '');
      const data =
        path === '/home/homeInfo'
          ? {
              webInfo: null,
              friendLinkList: [],
              benefits: [
                { kind: 'free_check', available: true },
                { kind: 'free_aigc_detection', available: false },
                { kind: 'ai_writing_trial', available: false },
                { kind: 'online_support', available: false },
              ],
            }
          : null;
      return jsonResponse({ code: 0, message: 'success', data });
    });
    renderRoutes(routes, '/register');
    const list = await screen.findByRole('list', { name: '注册赠送的权益' });
    const items = [...list.querySelectorAll('li')].map((li) => (li.textContent ?? '').trim());
    expect(items).toEqual([
      '免费查重一次可使用',
      '免费AIGC检测一次即将开放',
      'AI写作体验一次即将开放',
      '一对一在线服务即将开放',
    ]);
    expect(document.body.textContent).not.toContain('全部服务');
  });
});
