// The five auth panels (password login, WeChat login, bind WeChat, bind phone, register) in one file
// of ~520 lines on purpose: they share the ~100 lines of fakes and helpers above the first describe,
// which two files would have to repeat.
import { md5Hex } from '@kyfw/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../../app/provider';
import { uiStore } from '../../../stores/ui-store';
import {
  installDomShims,
  jsonResponse,
  makeUserInfo,
  resetAppState,
  stubFetch,
} from '../../../testing/test-utils';
import { sessionStore } from '../stores/session-store';
import { AccountLoginPanel } from './account-login-panel';
import { BindPhonePanel } from './bind-phone-panel';
import { BindWxPanel } from './bind-wx-panel';
import { RegisterForm } from './register-form';
import { WxLoginPanel } from './wx-login-panel';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
/** Every toast shown during the current test (the store drops each after 3 s). */
const toasts: { type: string; content: string }[] = [];
let unsubscribe = () => {};
beforeEach(() => {
  resetAppState();
  toasts.length = 0;
  const seen = new Set<string>();
  unsubscribe = uiStore.subscribe(() => {
    for (const msg of Object.values(uiStore.getState().msgMap)) {
      if (seen.has(msg.id)) continue;
      seen.add(msg.id);
      toasts.push({ type: msg.type, content: msg.content });
    }
  });
});
afterEach(() => {
  unsubscribe();
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderUi(ui: ReactNode) {
  return render(<AppProvider queryClient={createQueryClient()}>{ui}</AppProvider>);
}

interface Call {
  path: string;
  body: Record<string, unknown>;
  at: number;
  token: string | null;
}

/** A fake server: `routes[path]` answers each call (envelope or Response); every call is recorded. */
function fakeServer(routes: Record<string, (body: Record<string, unknown>, n: number) => unknown>) {
  const calls: Call[] = [];
  const counts: Record<string, number> = {};
  stubFetch((url, init) => {
    const path = new URL(url, 'http://localhost').pathname.replace('/kyfw/web/v1', '');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    calls.push({ path, body, at: Date.now(), token: new Headers(init.headers).get('token') });
    counts[path] = (counts[path] ?? 0) + 1;
    const answer = routes[path]?.(body, counts[path]);
    if (answer instanceof Response) return answer;
    return jsonResponse(answer ?? { code: 0, message: 'ok', data: null });
  });
  return {
    calls,
    count: (path: string) => calls.filter((c) => c.path === path).length,
    last: (path: string) => calls.filter((c) => c.path === path).at(-1),
  };
}

const ok = (data: unknown, message = 'ok') => ({ code: 0, message, data });
const fail = (code: number, message: string) => ({ code, message, data: null });
const user = makeUserInfo();

function type(placeholder: string | RegExp, value: string) {
  const input = screen.getByPlaceholderText(placeholder);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

/** Clicks the button once it is enabled (useWatch-driven buttons enable after a render). */
async function clickEnabled(name: string) {
  const button = screen.getByRole('button', { name });
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
  fireEvent.click(button);
}

/** Advances fake time in steps, letting promises (fetch answers, React updates) settle in between. */
async function advance(ms: number, step = 500) {
  for (let t = 0; t < ms; t += step) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.min(step, ms - t));
    });
  }
}

describe('account-and-password login panel (spec §4/§5)', () => {
  it('keeps 登录 disabled until both phone and password are filled', async () => {
    fakeServer({});
    renderUi(<AccountLoginPanel onSuccess={() => {}} />);
    const submit = screen.getByRole('button', { name: '登录' });
    expect(submit).toHaveProperty('disabled', true);
    type('请输入手机号码', '13912345678');
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
    type(/请输入密码/, 'secret1');
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    type('请输入手机号码', '');
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
  });

  it('shows the §5 messages and sends nothing while a rule is broken', async () => {
    const server = fakeServer({});
    renderUi(<AccountLoginPanel onSuccess={() => {}} />);
    type('请输入手机号码', '12345678901');
    type(/请输入密码/, '12345');
    await clickEnabled('登录');
    expect(await screen.findByText('请输入正确的手机号码')).toBeTruthy();
    expect(screen.getByText('密码不少于6位')).toBeTruthy();
    expect(screen.getByText('请阅读并接受《用户服务条款》《隐私政策》')).toBeTruthy();
    type('请输入手机号码', '');
    expect(
      await screen.findByText('请输入手机号码', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    expect(server.count('/login')).toBe(0);
  });

  it('sends the password as MD5, stores the token, loads the user info 1 s later, then 欢迎登录！', async () => {
    const server = fakeServer({
      '/login': () => ok({ token: 'tok-1' }, '欢迎登录！'),
      '/getUserInfo': () => ok(user),
    });
    const onSuccess = vi.fn();
    renderUi(<AccountLoginPanel onSuccess={onSuccess} />);
    type('请输入手机号码', '13912345678');
    type(/请输入密码/, 'secret1');
    fireEvent.click(screen.getByRole('checkbox'));
    await clickEnabled('登录');
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    const login = server.last('/login');
    expect(login?.body).toEqual({ phoneNumber: '13912345678', passWord: md5Hex('secret1') });
    const info = server.last('/getUserInfo');
    expect(info?.token).toBe('tok-1');
    expect((info?.at ?? 0) - (login?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(Cookies.get('token')).toBe('tok-1');
    expect(sessionStore.getState().userInfo?.id).toBe('u-1');
    expect(toasts).toContainEqual({ type: 'success', content: '欢迎登录！' });
  });

  it('shows the server message on a failed login and stays', async () => {
    fakeServer({ '/login': () => fail(2006, '手机号或密码错误') });
    const onSuccess = vi.fn();
    renderUi(<AccountLoginPanel onSuccess={onSuccess} />);
    type('请输入手机号码', '13912345678');
    type(/请输入密码/, 'secret1');
    fireEvent.click(screen.getByRole('checkbox'));
    await clickEnabled('登录');
    await waitFor(() => expect(toasts).toContainEqual({ type: 'error', content: '手机号或密码错误' }));
    expect(onSuccess).not.toHaveBeenCalled();
    expect(Cookies.get('token')).toBeUndefined();
  });
});

describe('WeChat login panel (spec §4)', () => {
  const qr = (n: number) =>
    ok({ ticket: `ticket-${n}`, userId: `session-${n}`, qrUrl: `/qr/${n}.png`, expireSeconds: 600 });

  it('shows the QR and polls /loginStatus every 3 s only while active', async () => {
    vi.useFakeTimers();
    const server = fakeServer({
      '/qrCode': (_b, n) => qr(n),
      '/loginStatus': () => ok({ loginStatus: '0', userInfo: null }),
    });
    const view = renderUi(<WxLoginPanel active={false} onSuccess={() => {}} />);
    await advance(6000);
    expect(server.count('/qrCode')).toBe(0);
    view.rerender(
      <AppProvider queryClient={createQueryClient()}>
        <WxLoginPanel active onSuccess={() => {}} />
      </AppProvider>,
    );
    await advance(100, 100);
    expect(server.count('/qrCode')).toBe(1);
    expect(screen.getByAltText('微信扫码二维码').getAttribute('src')).toBe('/qr/1.png');
    await advance(2800, 100);
    expect(server.count('/loginStatus')).toBe(0);
    await advance(200, 100);
    expect(server.count('/loginStatus')).toBe(1);
    expect(server.last('/loginStatus')?.body).toEqual({ userId: 'session-1' });
    await advance(6000);
    expect(server.count('/loginStatus')).toBe(3);

    // Another tab chosen / dialog closed: polling stops.
    view.rerender(
      <AppProvider queryClient={createQueryClient()}>
        <WxLoginPanel active={false} onSuccess={() => {}} />
      </AppProvider>,
    );
    await advance(9000);
    expect(server.count('/loginStatus')).toBe(3);
  });

  it('fetches a new QR after 100 polls without login', async () => {
    vi.useFakeTimers();
    const server = fakeServer({
      '/qrCode': (_b, n) => qr(n),
      '/loginStatus': () => ok({ loginStatus: '0', userInfo: null }),
    });
    renderUi(<WxLoginPanel active onSuccess={() => {}} />);
    await advance(99 * 3000 + 100, 3000);
    expect(server.count('/loginStatus')).toBe(99);
    expect(server.count('/qrCode')).toBe(1);
    await advance(3000, 3000);
    expect(server.count('/loginStatus')).toBe(100);
    expect(server.count('/qrCode')).toBe(2);
    await advance(3000, 3000);
    expect(server.last('/loginStatus')?.body).toEqual({ userId: 'session-2' });
    expect(toasts).toEqual([]);
  });

  it('on 1005 shows its message and fetches a new QR; other polling errors are silent', async () => {
    vi.useFakeTimers();
    const server = fakeServer({
      '/qrCode': (_b, n) => qr(n),
      '/loginStatus': (_b, n) => {
        if (n === 1) return fail(1000, '服务器开小差了');
        if (n === 2) return new Response('bad gateway', { status: 502 });
        if (n === 3) return fail(1005, '二维码已过期，请重新扫码');
        return ok({ loginStatus: '0', userInfo: null });
      },
    });
    renderUi(<WxLoginPanel active onSuccess={() => {}} />);
    await advance(6100, 100);
    expect(server.count('/loginStatus')).toBe(2);
    expect(toasts).toEqual([]);
    await advance(3000, 100);
    expect(toasts).toEqual([{ type: 'error', content: '二维码已过期，请重新扫码' }]);
    expect(server.count('/qrCode')).toBe(2);
    await advance(3000, 100);
    expect(server.last('/loginStatus')?.body).toEqual({ userId: 'session-2' });
  });

  it("on loginStatus '1' stores the token, loads the user info 1 s later and says 欢迎登录！", async () => {
    vi.useFakeTimers();
    const server = fakeServer({
      '/qrCode': (_b, n) => qr(n),
      '/loginStatus': () => ok({ loginStatus: '1', userInfo: { token: 'wx-token' } }),
      '/getUserInfo': () => ok({ ...user, phoneNumber: null, wxOpenId: 'o_***x' }),
    });
    const onSuccess = vi.fn();
    renderUi(<WxLoginPanel active onSuccess={onSuccess} />);
    await advance(3100, 100);
    expect(Cookies.get('token')).toBe('wx-token');
    expect(server.count('/getUserInfo')).toBe(0);
    await advance(800, 100);
    expect(server.count('/getUserInfo')).toBe(0);
    await advance(200, 100);
    expect(server.count('/getUserInfo')).toBe(1);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([{ type: 'success', content: '欢迎登录！' }]);
    // polling has stopped
    await advance(9000);
    expect(server.count('/loginStatus')).toBe(1);
  });

  it('in sandbox mode offers 模拟扫码 with a stable fake openId of this browser', async () => {
    const server = fakeServer({
      '/qrCode': (_b, n) =>
        ok({ ticket: `ticket-${n}`, userId: `session-${n}`, qrUrl: '/q.png', sandbox: true }),
      '/loginStatus': () => ok({ loginStatus: '0', userInfo: null }),
      '/__dev/wechat/scan': () => ok({ event: 'subscribe' }, '扫码成功'),
    });
    renderUi(<WxLoginPanel active onSuccess={() => {}} />);
    expect(await screen.findByText('沙箱')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '模拟扫码' }));
    await waitFor(() => expect(server.count('/__dev/wechat/scan')).toBe(1));
    const first = server.last('/__dev/wechat/scan')?.body;
    expect(first?.ticket).toBe('ticket-1');
    expect(String(first?.openId)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // polled right away after the scan
    await waitFor(() => expect(server.count('/loginStatus')).toBe(1));
    // antd ignores clicks while the button still shows loading; wait until the first scan is over
    // (jsdom never ends the loading icon's leave motion, hence the pattern)
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /模拟扫码/ }).className).not.toMatch(/ant-btn-loading/),
    );
    fireEvent.click(screen.getByRole('button', { name: /模拟扫码/ }));
    await waitFor(() => expect(server.count('/__dev/wechat/scan')).toBe(2));
    expect(server.last('/__dev/wechat/scan')?.body.openId).toBe(first?.openId);
  });

  it('shows no 沙箱 notice with the real platform', async () => {
    fakeServer({
      '/qrCode': (_b, n) => qr(n),
      '/loginStatus': () => ok({ loginStatus: '0', userInfo: null }),
    });
    renderUi(<WxLoginPanel active onSuccess={() => {}} />);
    await screen.findByAltText('微信扫码二维码');
    expect(screen.queryByText('沙箱')).toBeNull();
    expect(screen.queryByRole('button', { name: '模拟扫码' })).toBeNull();
  });
});

describe('bind WeChat panel (spec §4)', () => {
  const qr = (n: number) => ok({ ticket: `bt-${n}`, userId: `bind-${n}`, qrUrl: `/b/${n}.png` });

  it('polls /getUserInfo by userId every 3 s until wxOpenId appears, then replaces the user info', async () => {
    vi.useFakeTimers();
    Cookies.set('token', 't-1');
    sessionStore.setState({ userInfo: user, checked: true });
    const bound = { ...user, wxOpenId: 'o_***x', entitlements: [{ kind: 'free_check' }] };
    const server = fakeServer({
      '/weixin/wx/getBindingRCode': (_b, n) => qr(n),
      '/getUserInfo': (_b, n) => (n < 3 ? ok({ wxOpenId: null }, 'success') : ok(bound, '绑定成功！')),
    });
    const onSuccess = vi.fn();
    renderUi(<BindWxPanel active onSuccess={onSuccess} />);
    await advance(6100, 100);
    expect(server.count('/getUserInfo')).toBe(2);
    expect(server.last('/getUserInfo')?.body).toEqual({ userId: 'bind-1' });
    expect(onSuccess).not.toHaveBeenCalled();
    await advance(3000, 100);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(sessionStore.getState().userInfo).toEqual(bound);
    expect(toasts).toEqual([{ type: 'success', content: '绑定成功！' }]);
  });

  it('refreshes the QR after 100 polls and on 1005; a WeChat of another account gets its message', async () => {
    vi.useFakeTimers();
    Cookies.set('token', 't-1');
    const server = fakeServer({
      '/weixin/wx/getBindingRCode': (_b, n) => qr(n),
      '/getUserInfo': (body, n) => {
        if (body.userId === 'bind-2' && n === 101) return fail(1005, '二维码已过期，请重新扫码');
        if (body.userId === 'bind-3') return fail(2013, '该微信已绑定其他账号');
        return ok({ wxOpenId: null }, 'success');
      },
    });
    renderUi(<BindWxPanel active onSuccess={() => {}} />);
    await advance(100 * 3000 + 100, 3000);
    expect(server.count('/weixin/wx/getBindingRCode')).toBe(2);
    expect(toasts).toEqual([]);
    await advance(3000, 3000);
    expect(toasts).toEqual([{ type: 'error', content: '二维码已过期，请重新扫码' }]);
    expect(server.count('/weixin/wx/getBindingRCode')).toBe(3);
    await advance(3000, 3000);
    expect(toasts.at(-1)).toEqual({ type: 'error', content: '该微信已绑定其他账号' });
    expect(server.count('/weixin/wx/getBindingRCode')).toBe(4);
  });
});

describe('bind phone panel (spec §4/§5)', () => {
  it('keeps 确认绑定 disabled until the agreement is ticked and shows the §5 messages', async () => {
    const server = fakeServer({});
    renderUi(<BindPhonePanel onSuccess={() => {}} />);
    const submit = screen.getByRole('button', { name: '确认绑定' });
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('checkbox'));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));
    type('请输入手机号码', '1391234');
    fireEvent.click(submit);
    const error = { selector: '.ant-form-item-explain-error' };
    expect(await screen.findByText('请输入正确的手机号', error)).toBeTruthy();
    expect(await screen.findByText('请输入短信验证码', error)).toBeTruthy();
    expect(screen.getByText('请选择专业', error)).toBeTruthy();
    expect(screen.getByText('请选择学历', error)).toBeTruthy();
    expect(server.count('/websiteUser/bindPhoneNumber')).toBe(0);
    // The password placeholder says that an empty password sets none (decision 0005).
    expect(screen.getByPlaceholderText(/不填写则不设置密码/).getAttribute('placeholder')).toContain(
      '微信扫码登录',
    );
  });

  it('unticking the agreement disables the button again with 请阅读并勾选…协议', async () => {
    fakeServer({});
    renderUi(<BindPhonePanel onSuccess={() => {}} />);
    const box = screen.getByRole('checkbox');
    fireEvent.click(box);
    fireEvent.click(box);
    expect(await screen.findByText('请阅读并勾选…协议')).toBeTruthy();
    expect(screen.getByRole('button', { name: '确认绑定' })).toHaveProperty('disabled', true);
  });

  it('sends the code (type 2) only for a valid phone, then counts 60 s down on the disabled button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeServer({ '/sendCheckCode': () => ok(null, '短信发送成功') });
    renderUi(<BindPhonePanel onSuccess={() => {}} />);
    type('请输入手机号码', '12345');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入正确的手机号')).toBeTruthy();
    expect(server.count('/sendCheckCode')).toBe(0);

    type('请输入手机号码', '13912345678');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    const counting = await screen.findByRole('button', { name: '60秒后重新获取' });
    expect(server.last('/sendCheckCode')?.body).toEqual({ phoneNumber: '13912345678', type: '2' });
    expect(toasts).toContainEqual({ type: 'success', content: '短信发送成功' });
    expect(counting).toHaveProperty('disabled', true);
    await advance(1000, 1000);
    expect(screen.getByRole('button', { name: '59秒后重新获取' })).toHaveProperty('disabled', true);
    await advance(58_000, 1000);
    expect(screen.getByRole('button', { name: '1秒后重新获取' })).toBeTruthy();
    await advance(1000, 1000);
    expect(screen.getByRole('button', { name: '获取验证码' })).toHaveProperty('disabled', false);
  });

  it('binds with an empty password as none, reloads the user info 1 s later, then 绑定成功', async () => {
    Cookies.set('token', 't-1');
    const bound = { ...user, wxOpenId: 'o_***x' };
    const server = fakeServer({
      '/sendCheckCode': () => ok(null, '短信发送成功'),
      '/websiteUser/bindPhoneNumber': () => ok(bound, '绑定成功'),
      '/getUserInfo': () => ok(bound),
    });
    const onSuccess = vi.fn();
    renderUi(<BindPhonePanel onSuccess={onSuccess} />);
    type('请输入手机号码', '13912345678');
    type('6位数字验证码', '123456');
    pickOption('请选择专业', '软件工程');
    pickOption('请选择学历', '本科');
    fireEvent.click(screen.getByRole('checkbox'));
    await clickEnabled('确认绑定');
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    const bind = server.last('/websiteUser/bindPhoneNumber');
    expect(bind?.body).toEqual({
      phoneNumber: '13912345678',
      checkCode: '123456',
      passWord: '',
      major: '软件工程',
      education: '本科',
    });
    const info = server.last('/getUserInfo');
    expect((info?.at ?? 0) - (bind?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(sessionStore.getState().userInfo).toEqual(bound);
    expect(toasts).toContainEqual({ type: 'success', content: '绑定成功' });
  });

  it('sends a typed password as MD5 and shows the server message for a phone of another account', async () => {
    const server = fakeServer({
      '/websiteUser/bindPhoneNumber': () => fail(2011, '该手机号已绑定其他账号'),
    });
    const onSuccess = vi.fn();
    renderUi(<BindPhonePanel onSuccess={onSuccess} />);
    type('请输入手机号码', '13912345678');
    type('6位数字验证码', '123456');
    type(/不填写则不设置密码/, 'newpass1');
    pickOption('请选择专业', '法学');
    pickOption('请选择学历', '硕士研究生');
    fireEvent.click(screen.getByRole('checkbox'));
    await clickEnabled('确认绑定');
    await waitFor(() => expect(toasts).toContainEqual({ type: 'error', content: '该手机号已绑定其他账号' }));
    expect(server.last('/websiteUser/bindPhoneNumber')?.body.passWord).toBe(md5Hex('newpass1'));
    expect(onSuccess).not.toHaveBeenCalled();
  });
});

describe('register form', () => {
  it('shows the sandbox code after sending (type 1) and registers with the MD5 password', async () => {
    const server = fakeServer({
      '/sendCheckCode': () => ok({ sandbox: true }, '短信发送成功'),
      '/__dev/sms/last': () => ok({ code: '246810', type: '1', sentAt: new Date().toISOString() }),
      '/addUserByPhone': () => ok({ token: 'reg-token' }, '注册成功'),
      '/getUserInfo': () => ok(user),
    });
    const onSuccess = vi.fn();
    renderUi(<RegisterForm onSuccess={onSuccess} />);
    type('请输入手机号码', '13912345678');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('246810')).toBeTruthy();
    expect(screen.getByText('沙箱')).toBeTruthy();
    expect(server.last('/sendCheckCode')?.body).toEqual({ phoneNumber: '13912345678', type: '1' });
    expect(server.calls.find((c) => c.path === '/__dev/sms/last')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '填入' }));
    type(/请输入密码/, 'secret1');
    type('请再次输入密码', 'secret2');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '注册并登录' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    type('请再次输入密码', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: '注册并登录' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(server.last('/addUserByPhone')?.body).toEqual({
      phoneNumber: '13912345678',
      checkCode: '246810',
      passWord: md5Hex('secret1'),
    });
    expect(Cookies.get('token')).toBe('reg-token');
  });

  it('does not ask the sandbox for the code with a real SMS provider', async () => {
    const server = fakeServer({ '/sendCheckCode': () => ok(null, '短信发送成功') });
    renderUi(<RegisterForm onSuccess={() => {}} />);
    type('请输入手机号码', '13912345678');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: /秒后重新获取/ });
    expect(server.calls.some((c) => c.path === '/__dev/sms/last')).toBe(false);
    expect(screen.queryByText('沙箱')).toBeNull();
  });
});

describe('the picture check (图形验证码) when the server asks for one', () => {
  it('shows the picture on 2024, sends the answer with the code request, a new picture on 2025', async () => {
    const image = 'data:image/svg+xml;base64,PHN2Zy8+';
    let captchas = 0;
    const server = fakeServer({
      '/sendCheckCode': (body) => {
        if (!body.captchaId) return fail(2024, '请输入图形验证码');
        if (body.captchaCode !== 'K7XM') return fail(2025, '图形验证码错误，请重新输入');
        return ok(null, '短信发送成功');
      },
      '/captcha': () => {
        captchas++;
        return ok({ captchaId: `c-${captchas}`, image });
      },
    });
    renderUi(<RegisterForm onSuccess={() => {}} />);
    type('请输入手机号码', '13912345678');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    const picture = await screen.findByAltText('图形验证码，点击换一张');
    expect(picture.getAttribute('src')).toBe(image);
    expect(toasts).toContainEqual({ type: 'error', content: '请输入图形验证码' });

    type('请输入图中字符', 'abcd');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(captchas).toBe(2));
    expect(server.last('/sendCheckCode')?.body).toEqual({
      phoneNumber: '13912345678',
      type: '1',
      captchaId: 'c-1',
      captchaCode: 'abcd',
    });
    expect((screen.getByPlaceholderText('请输入图中字符') as HTMLInputElement).value).toBe('');

    type('请输入图中字符', 'K7XM');
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await screen.findByRole('button', { name: /秒后重新获取/ });
    expect(server.last('/sendCheckCode')?.body).toMatchObject({ captchaId: 'c-2', captchaCode: 'K7XM' });
    expect(screen.queryByAltText('图形验证码，点击换一张')).toBeNull();
  });
});

/** Opens the antd Select with that placeholder and clicks the option. */
function pickOption(placeholder: string, option: string) {
  const select = screen.getByText(placeholder).closest('.ant-select');
  if (!select) throw new Error(`no select ${placeholder}`);
  const input = select.querySelector('input') ?? select;
  fireEvent.mouseDown(input);
  const item = Array.from(document.querySelectorAll('.ant-select-item-option')).find(
    (el) => el.textContent === option,
  );
  if (!item) throw new Error(`no option ${option}`);
  fireEvent.click(item);
}
