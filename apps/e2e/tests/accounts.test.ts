// The accounts journeys (issue 3), each as a new user would do them in the browser: register, log
// out and in, change and reset the password, WeChat QR login through the sandbox scan, binding a
// phone or WeChat, deleting the account, and a protected page while logged out. SMS codes are read
// from the sandbox through GET /__dev/sms/last, as a developer would.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useJourney } from '../lib/journey.ts';
import { randomPhone } from '../lib/users.ts';

const journey = useJourney('accounts');
let page: Page;
/** Accounts registered before the journeys start (existing users who forget or delete). */
const existing = { forgetful: randomPhone(), leaving: randomPhone() };

beforeAll(async () => {
  await journey.start({
    // Every journey sends codes from 127.0.0.1: lift the per-IP SMS limits (the per-phone ones stay).
    SMS_IP_MAX_PER_MINUTE: '1000',
    SMS_IP_MAX_PER_HOUR: '1000',
    SMS_IP_CAPTCHA_AFTER: '100000',
    SMS_IP_MAX_PER_DAY: '1000',
  });
  await registerThroughApi(existing.forgetful, 'forgot-me1');
  await registerThroughApi(existing.leaving, 'delete-me1');
});

async function openPage(path: string): Promise<Page> {
  ({ page } = await journey.openAs(null, path));
  return page;
}

/** The wire password (MD5 hex) for the API calls made beside the browser. */
function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

function masked(phone: string): string {
  return `${phone.slice(0, 3)}****${phone.slice(7)}`;
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function api<T>(path: string, body: unknown = {}, token = ''): Promise<Envelope<T>> {
  const res = await fetch(`${journey.server.baseUrl}/kyfw/web/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token, terminal: 'PC' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope<T>;
}

/** The code the sandbox SMS provider last "sent" to that phone (GET /__dev/sms/last). */
async function lastSmsCode(phone: string, type: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await fetch(`${journey.server.baseUrl}/__dev/sms/last?phone=${phone}`);
      const body = (await res.json()) as Envelope<{ code: string; type: string } | null>;
      code = body.code === 0 && body.data?.type === type ? body.data.code : '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

/**
 * A phone gets at most one code a minute (any purpose). A journey about an existing user moves the
 * server's clock (POST /__dev/clock/advance) until that user's last code is a minute old.
 */
async function waitForSmsWindow(phone: string) {
  const base = journey.server.baseUrl;
  const last = (await (await fetch(`${base}/__dev/sms/last?phone=${phone}`)).json()) as Envelope<{
    sentAt: string;
  } | null>;
  if (last.code !== 0 || !last.data) return;
  const clock = (await (await fetch(`${base}/__dev/clock`)).json()) as Envelope<{ now: string }>;
  const wait = new Date(last.data.sentAt).getTime() + 61_000 - new Date(clock.data.now).getTime();
  if (wait <= 0) return;
  const moved = await fetch(`${base}/__dev/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: wait }),
  });
  expect(((await moved.json()) as Envelope<unknown>).code).toBe(0);
}

async function registerThroughApi(phone: string, password: string) {
  const sent = await api('/sendCheckCode', { phoneNumber: phone, type: '1' });
  if (sent.code !== 0) throw new Error(`sendCheckCode: ${sent.message}`);
  const res = await fetch(`${journey.server.baseUrl}/__dev/sms/last?phone=${phone}`);
  const { data } = (await res.json()) as Envelope<{ code: string }>;
  const code = data.code;
  const registered = await api('/addUserByPhone', {
    phoneNumber: phone,
    checkCode: code,
    passWord: md5(password),
  });
  if (registered.code !== 0) throw new Error(`addUserByPhone: ${registered.message}`);
}

async function expectToast(text: string) {
  await expect.poll(() => page.locator('.ant-message').innerText()).toContain(text);
}

async function token(): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'token')?.value ?? '';
}

/** The logged-in header shows the account menu with this name. */
async function expectLoggedInAs(name: string) {
  await expect.poll(() => page.locator('.account-trigger').innerText()).toContain(name);
}

async function openAccountMenu(): Promise<string> {
  await page.locator('.account-trigger').hover();
  const menu = page.getByRole('menu').last();
  await menu.waitFor();
  return menu.innerText();
}

/** Clicks an entry of the header's account menu (a hover menu: retried until the page changes). */
async function clickMenu(label: string, path?: string) {
  for (let attempt = 0; ; attempt += 1) {
    await openAccountMenu();
    await page.getByRole('menuitem', { name: label }).click();
    if (!path) return;
    try {
      await page.waitForURL((url) => url.pathname === path, { timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
      await page.mouse.move(0, 0);
    }
  }
}

async function logOutThroughMenu() {
  // A hover menu: a click that lands while the popup is still opening or closing is lost, so try
  // again until the header shows the login button.
  const loginButton = page.getByRole('button', { name: '登录 / 注册' }).first();
  for (let attempt = 0; ; attempt += 1) {
    await clickMenu('退出登录');
    try {
      await loginButton.waitFor({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt >= 2) throw error;
      await page.mouse.move(0, 0);
    }
  }
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');
}

/** Picks an option of an antd Select by its label, retried until the choice shows in the field. */
async function chooseOption(scope: Locator, label: string, option: string) {
  const input = scope.getByLabel(label);
  const select = scope.locator(`.ant-select:has([id="${await input.getAttribute('id')}"])`);
  const item = page.locator(
    `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${option}"]`,
  );
  for (let attempt = 0; ; attempt += 1) {
    try {
      if (!(await item.isVisible())) await input.click({ timeout: 5_000 });
      await item.click({ timeout: 5_000 });
      await expect.poll(() => select.innerText(), { timeout: 5_000 }).toContain(option);
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

async function registerThroughUi(phone: string, password: string) {
  await page.goto('/register');
  const form = page.locator('form[aria-label="注册账号"]');
  await form.getByPlaceholder('请输入手机号码').fill(phone);
  await form.getByRole('button', { name: '获取验证码' }).click();
  await expectToast('短信发送成功');
  await expect.poll(() => form.getByRole('button', { name: /秒后重新获取/ }).isDisabled()).toBe(true);
  const code = await lastSmsCode(phone, '1');
  // The 沙箱 notice shows the same code.
  await expect.poll(() => form.getByTestId('sandbox-sms-code').innerText()).toBe(code);
  await form.getByPlaceholder('6位数字验证码').fill(code);
  await form.getByPlaceholder('请输入密码（6-50位）').fill(password);
  await form.getByPlaceholder('请再次输入密码').fill(password);
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: '注册并登录' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  await expectLoggedInAs(masked(phone));
}

async function logInWithPasswordInDialog(phone: string, password: string) {
  await page.getByRole('button', { name: '登录 / 注册' }).first().click();
  const dialog = page.locator('.login-dialog');
  await dialog.getByRole('tab', { name: '账号密码登录' }).click();
  const submit = dialog.getByRole('button', { name: '登录', exact: true });
  expect(await submit.isDisabled()).toBe(true);
  await dialog.getByPlaceholder('请输入手机号码').fill(phone);
  await dialog.getByPlaceholder('请输入密码（6-50位）').fill(password);
  await dialog.getByRole('checkbox').check();
  await expect.poll(() => submit.isDisabled()).toBe(false);
  await submit.click();
}

/** WeChat QR login in the dialog through the sandbox's 模拟扫码 (this browser's fake WeChat user). */
async function logInWithWeChat() {
  await page.getByRole('button', { name: '登录 / 注册' }).first().click();
  const dialog = page.locator('.login-dialog');
  await expect.poll(() => dialog.locator('.ant-tabs-tab-active').innerText()).toContain('微信登录');
  await dialog.locator('.qr-box__image').waitFor();
  expect(await dialog.locator('.sandbox-notice').innerText()).toContain('沙箱');
  await dialog.getByRole('button', { name: '模拟扫码' }).click();
  await expectToast('欢迎登录！');
  await expectLoggedInAs('微信用户');
  await expect.poll(() => dialog.isVisible()).toBe(false);
}

describe('accounts journeys', () => {
  it('registers, logs out, logs in, changes the password and logs in again with the new one', async () => {
    const phone = randomPhone();
    await openPage('/');
    await registerThroughUi(phone, 'first-pass1');
    expect(await openAccountMenu()).toContain('修改密码');

    // Logging out ends the session on the server too.
    const registeredToken = await token();
    expect(registeredToken).toMatch(/^[0-9a-f]{64}$/);
    await logOutThroughMenu();
    expect(await token()).toBe('');
    expect((await api('/getUserInfo', {}, registeredToken)).code).toBe(1003);

    await logInWithPasswordInDialog(phone, 'first-pass1');
    await expectToast('欢迎登录！');
    await expectLoggedInAs(masked(phone));

    // A second session elsewhere, which the password change must end.
    const elsewhere = await api<{ token: string }>('/login', {
      phoneNumber: phone,
      passWord: md5('first-pass1'),
    });
    expect(elsewhere.code).toBe(0);

    await clickMenu('修改密码', '/user/password');
    const form = page.locator('form[aria-label="修改密码"]');
    await form.getByPlaceholder('请输入当前使用的密码').fill('first-pass1');
    await form.getByPlaceholder('请输入新密码（6-50位）').fill('second-pass2');
    await form.getByPlaceholder('请再次输入密码').fill('second-pass2');
    await form.getByRole('button', { name: '确认修改' }).click();
    await expectToast('密码修改成功');
    await expect.poll(() => form.innerText()).toContain('其他设备上的登录已失效');
    expect((await api('/getUserInfo', {}, elsewhere.data.token)).code).toBe(1003);
    // this session stays
    expect((await api('/getUserInfo', {}, await token())).code).toBe(0);

    await logOutThroughMenu();
    await logInWithPasswordInDialog(phone, 'first-pass1');
    await expectToast('手机号或密码错误');
    await page.locator('.login-dialog').getByPlaceholder('请输入密码（6-50位）').fill('second-pass2');
    await page.locator('.login-dialog').getByRole('button', { name: '登录', exact: true }).click();
    await expectToast('欢迎登录！');
    await expectLoggedInAs(masked(phone));
  });

  it('logs in by WeChat QR through the sandbox scan; a new WeChat account has no change-password entry', async () => {
    await openPage('/');
    await logInWithWeChat();
    const menu = await openAccountMenu();
    expect(menu).toContain('个人信息');
    expect(menu).not.toContain('修改密码');

    // The same WeChat user scanning again logs in to the same account.
    const first = await api<{ id: string }>('/getUserInfo', {}, await token());
    await logOutThroughMenu();
    await logInWithWeChat();
    const second = await api<{ id: string }>('/getUserInfo', {}, await token());
    expect(second.data.id).toBe(first.data.id);
  });

  it('binds a phone after a WeChat login; then 修改密码 appears in the menu, and the free services stay those the WeChat account got', async () => {
    const phone = randomPhone();
    await openPage('/');
    await logInWithWeChat();
    await clickMenu('个人信息', '/user/info');
    await expect.poll(() => page.getByTestId('binding-phone').innerText()).toBe('未绑定');

    await page.getByRole('button', { name: '绑定手机号' }).first().click();
    const form = page.locator('form[aria-label="绑定手机号"]');
    const submit = form.getByRole('button', { name: '确认绑定' });
    expect(await submit.isDisabled()).toBe(true);
    expect(await form.getByPlaceholder(/不填写则不设置密码/).isVisible()).toBe(true);
    await form.getByPlaceholder('请输入手机号码').fill('12345');
    await form.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => form.innerText()).toContain('请输入正确的手机号');
    await form.getByPlaceholder('请输入手机号码').fill(phone);
    await form.getByRole('button', { name: '获取验证码' }).click();
    await expectToast('短信发送成功');
    const code = await lastSmsCode(phone, '2');
    await form.getByPlaceholder('6位数字验证码').fill(code);
    await chooseOption(form, '专业', '计算机科学与技术');
    await chooseOption(form, '学历', '硕士研究生');
    await form.getByRole('checkbox').check();
    await expect.poll(() => submit.isDisabled()).toBe(false);
    await submit.click();
    await expectToast('绑定成功');
    await expect.poll(() => form.isVisible()).toBe(false);

    await expect.poll(() => page.getByTestId('binding-phone').innerText()).toBe(masked(phone));
    const benefits = page.locator('ul.info-entitlements');
    await expect.poll(() => benefits.innerText()).toContain('一次免费查重');
    const benefitsText = await benefits.innerText();
    expect(benefitsText).toContain('一次免费AIGC检测');
    expect(benefitsText).toContain('AI写作体验');
    // Creating the account by a WeChat scan gave them (once per WeChat); binding a phone adds none.
    expect(benefitsText).toContain('微信注册获得');
    expect(benefitsText).not.toContain('绑定手机号获得');
    expect(await openAccountMenu()).toContain('修改密码');

    // Bound without a password: the password page explains how to set one.
    await clickMenu('修改密码', '/user/password');
    await expect.poll(() => page.locator('.user-panel').innerText()).toContain('忘记密码');
  });

  it('binds WeChat after a phone registration, through the sandbox scan', async () => {
    const phone = randomPhone();
    await openPage('/');
    await registerThroughUi(phone, 'bind-wx-1');
    await page.goto('/user/info');
    await expect.poll(() => page.getByTestId('binding-wechat').innerText()).toBe('未绑定');
    // Registering with a phone counts as binding it: the free services are there before WeChat is bound.
    const benefits = page.locator('ul.info-entitlements');
    await expect.poll(() => benefits.innerText()).toContain('手机号注册获得');
    await page.getByRole('button', { name: '绑定微信' }).first().click();
    const dialog = page.locator('.ant-modal', { hasText: '绑定微信后' });
    await dialog.locator('.qr-box__image').waitFor();
    await dialog.getByRole('button', { name: '模拟扫码' }).click();
    await expectToast('绑定成功！');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => page.getByTestId('binding-wechat').innerText()).toBe('已绑定');
    // Binding WeChat afterwards gives nothing more: the same services, still from the registration.
    const after = await benefits.innerText();
    expect(after).toContain('手机号注册获得');
    expect(after).not.toContain('绑定微信获得');
  });

  it('edits the personal data on /user/info and exports it as a JSON file', async () => {
    const phone = randomPhone();
    await openPage('/');
    await registerThroughUi(phone, 'profile-1');
    await clickMenu('个人信息', '/user/info');
    const form = page.locator('form[aria-label="个人资料"]');
    await form.getByPlaceholder('请输入真实姓名').fill('李同学');
    await form.getByPlaceholder('学校或工作单位').fill('北京大学');
    await chooseOption(form, '专业', '软件工程');
    await chooseOption(form, '学历', '本科');
    await form.getByText('女', { exact: true }).click();
    await form.getByRole('button', { name: '保存资料' }).click();
    await expectToast('保存成功');

    await page.reload();
    await expect.poll(() => form.getByPlaceholder('请输入真实姓名').inputValue()).toBe('李同学');
    expect(await form.getByPlaceholder('学校或工作单位').inputValue()).toBe('北京大学');
    const formText = await form.innerText();
    expect(formText).toContain('软件工程');
    expect(formText).toContain('本科');
    expect(await form.getByRole('radio', { name: '女' }).isChecked()).toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出我的数据' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('我的数据.json');
    const file = await download.path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as {
      account: { phoneNumber: string; realName: string; unitName: string; gender: string };
    };
    expect(exported.account).toMatchObject({
      phoneNumber: phone,
      realName: '李同学',
      unitName: '北京大学',
      gender: 'female',
    });
  });

  it('resets a forgotten password with an SMS code, then logs in with the new one', async () => {
    const phone = existing.forgetful;
    await waitForSmsWindow(phone);
    await openPage('/');
    await page.getByRole('button', { name: '登录 / 注册' }).first().click();
    await page.locator('.login-dialog').getByRole('link', { name: '忘记密码？' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login/forgotPassword');
    const form = page.locator('form[aria-label="找回密码"]');
    await form.getByPlaceholder('请输入手机号码').fill(phone);
    await form.getByRole('button', { name: '获取验证码' }).click();
    await expectToast('短信发送成功');
    const code = await lastSmsCode(phone, '3');
    await form.getByPlaceholder('6位数字验证码').fill(code);
    await form.getByPlaceholder('请输入新密码（6-50位）').fill('remembered2');
    await form.getByPlaceholder('请再次输入密码').fill('remembered2');
    await form.getByRole('button', { name: '重置密码' }).click();
    await expectToast('密码重置成功');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');

    // The /login page: account tab; the old password no longer works, the new one does.
    await page.getByRole('tab', { name: '账号密码登录' }).click();
    await page.getByPlaceholder('请输入手机号码').fill(phone);
    await page.getByPlaceholder('请输入密码（6-50位）').fill('forgot-me1');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expectToast('手机号或密码错误');
    await page.getByPlaceholder('请输入密码（6-50位）').fill('remembered2');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expectToast('欢迎登录！');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expectLoggedInAs(masked(phone));
  }, 150_000);

  it('deletes an account with an SMS code; logging in with it fails afterwards', async () => {
    const phone = existing.leaving;
    await waitForSmsWindow(phone);
    await openPage('/');
    await logInWithPasswordInDialog(phone, 'delete-me1');
    await expectToast('欢迎登录！');
    await expectLoggedInAs(masked(phone));
    const oldToken = await token();
    await clickMenu('个人信息', '/user/info');
    await page.getByRole('button', { name: '注销账号' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '注销后无法恢复' });
    const warning = await dialog.locator('.delete-account__warning').innerText();
    expect(warning).toContain('将被删除');
    expect(warning).toContain('依法保留');
    const confirm = dialog.getByRole('button', { name: '确认注销' });
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await expectToast('短信发送成功');
    const code = await lastSmsCode(phone, '4');
    await dialog.getByPlaceholder('6位数字验证码').fill(code);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox').check();
    await confirm.click();
    await expectToast('账号已注销');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.getByRole('button', { name: '登录 / 注册' }).first().waitFor();
    expect(await token()).toBe('');
    expect((await api('/getUserInfo', {}, oldToken)).code).toBe(1003);

    await logInWithPasswordInDialog(phone, 'delete-me1');
    await expectToast('手机号或密码错误');
    expect(await token()).toBe('');
  }, 150_000);

  it('deletes a WeChat-only account by re-scanning with the bound WeChat', async () => {
    await openPage('/');
    await logInWithWeChat();
    const oldToken = await token();
    await page.goto('/user/info');
    await page.getByRole('button', { name: '注销账号' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '注销后无法恢复' });
    expect(await dialog.locator('.qr-box__image').count()).toBe(0);
    await dialog.getByRole('checkbox').check();
    await dialog.locator('.qr-box__image').waitFor();
    await dialog.getByRole('button', { name: '模拟扫码' }).click();
    await expectToast('账号已注销');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect((await api('/getUserInfo', {}, oldToken)).code).toBe(1003);
  });

  it('sends a logged-out visitor of a protected page home with 请先登录, also right after logging out', async () => {
    await openPage('/user/password');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expectToast('请先登录');

    const phone = randomPhone();
    await registerThroughUi(phone, 'protect-1');
    await page.goto('/user/info');
    await expect.poll(() => page.getByTestId('binding-phone').innerText()).toBe(masked(phone));
    await page.goto('/logout');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(await token()).toBe('');
    await page.goto('/user/info');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expectToast('请先登录');
  });
});
