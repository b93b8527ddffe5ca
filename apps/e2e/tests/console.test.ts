// The operator console (issue 15): a finance operator created with the CLI logs in at /admin/login
// with username, password and the TOTP code (computed here from the secret the CLI printed, as an
// authenticator app would), finds the student's transfer proof under 线下付款, confirms it, and the
// student's paper check starts at once and finishes. An admin, logging in with a recovery code,
// creates a support account in the console; it logs in with the TOTP secret the console showed and
// the server refuses it a refund. Screenshots of the console pages are saved in
// apps/e2e/test-results (console-*.png).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { screenshot } from '../lib/browser.ts';
import { importSmallLibrary, useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';
import { API_PREFIX, api, MANY_USERS_ENV, registerUser } from '../lib/users.ts';

const journey = useJourney('console');
let operator: StaffAccount;
let admin: StaffAccount;

beforeAll(async () => {
  // The accounts are created the documented way, before the server holds the data folder.
  const dataDir = join(journey.work, 'data');
  mkdirSync(dataDir);
  operator = createStaffAccount(dataDir, 'zhangcw', 'finance');
  admin = createStaffAccount(dataDir, 'lijl', 'admin');
  importSmallLibrary(dataDir, journey.work);
  await journey.start({ ...MANY_USERS_ENV, DATA_DIR: dataDir });
});

/** A new browser context (no customer logged in) on `path`; the test's page from then on. */
async function open(path: string): Promise<Page> {
  return (await journey.openAs(null, path)).page;
}

describe('operator console', () => {
  it('a finance operator logs in with TOTP, confirms a transfer, and the student’s check runs', async () => {
    expect(operator).toMatchObject({ username: 'zhangcw' });
    expect(operator.totpSecret).toMatch(/^[A-Z2-7]{32}$/);

    // The student uploads a paper (a paid check order) and pays by bank transfer with a proof.
    const student = await registerUser(journey.server.baseUrl);
    const form = new FormData();
    form.append('title', '高校图书馆文献服务研究');
    form.append('author', '张三');
    form.append('goodsId', 'check_journal');
    const text = Array.from(
      { length: 20 },
      (_, i) => `第${i + 1}段。本文分析了读者在检索与获取全文过程中的需求，并提出改进建议。`,
    ).join('\n');
    form.append('file', new Blob([text], { type: 'text/plain' }), 'paper.txt');
    const upload = (await (
      await fetch(`${journey.server.baseUrl}${API_PREFIX}/freeCheck/uploadFile`, {
        method: 'POST',
        headers: { token: student.token, terminal: 'PC' },
        body: form,
      })
    ).json()) as { code: number; data: { orderId: string; orderNo: string } };
    expect(upload.code).toBe(0);
    // A real image as the transfer proof (the console shows it): a screenshot of a small page.
    const page = await open('about:blank');
    await page.setContent('<p style="font-size:28px">转账成功 ¥ 金额见订单</p>');
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 360, height: 80 } });
    const proof = new FormData();
    proof.append('orderId', upload.data.orderId);
    proof.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'transfer.png');
    const sent = (await (
      await fetch(`${journey.server.baseUrl}${API_PREFIX}/payment/offline/proof`, {
        method: 'POST',
        headers: { token: student.token, terminal: 'PC' },
        body: proof,
      })
    ).json()) as { code: number };
    expect(sent.code).toBe(0);

    // Without a session the console shows its login page.
    await page.goto('/admin/offline');
    await expect.poll(() => page.url()).toContain('/admin/login');
    await page.getByLabel('用户名').fill(operator.username);
    await page.getByLabel('密码').fill(operator.password);
    // A wrong code is refused with the server's message.
    await page.getByLabel('动态验证码').fill('000000');
    await page.getByRole('button', { name: '登录' }).click();
    await expect
      .poll(() =>
        page
          .locator('.ant-message, .toast-host, [role=alert]')
          .allInnerTexts()
          .then((t) => t.join(' ')),
      )
      .toContain('用户名、密码或动态验证码错误');
    await screenshot(page, 'console-login');
    await page.getByLabel('动态验证码').fill(totpCode(operator.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('财务');
    await expect.poll(() => page.locator('.ant-statistic').first().innerText()).toContain('1');
    await screenshot(page, 'console-dashboard');

    await page.getByRole('menuitem', { name: '线下付款' }).click();
    const row = page.locator('tr', { hasText: upload.data.orderNo });
    await expect.poll(() => row.count()).toBe(1);
    // The proof image loads (the staff cookie goes with the image request).
    await expect
      .poll(() => row.locator('img').evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await screenshot(page, 'console-offline');
    await row.getByRole('button', { name: '确认到账' }).click();
    const modal = page.locator('.ant-modal', { hasText: '确认该笔转账已到账' });
    await expect.poll(() => modal.isVisible()).toBe(true);
    await modal.getByRole('button', { name: '确认到账' }).click();
    await expect.poll(() => row.count()).toBe(0);

    // The student's check started the moment the payment was confirmed, and it finishes.
    await expect
      .poll(
        async () =>
          (
            await api<{ status: string }>(
              journey.server.baseUrl,
              '/order/detail',
              { orderId: upload.data.orderId },
              student.token,
            )
          ).status,
        { timeout: 90_000 },
      )
      .toBe('done');

    await page.getByRole('menuitem', { name: '订单' }).click();
    await page.getByLabel('订单号').fill(upload.data.orderNo);
    await page.getByRole('button', { name: '搜索' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody').innerText()).toContain(upload.data.orderNo);
    await page.getByRole('button', { name: '详情' }).click();
    await expect.poll(() => page.locator('.ant-drawer').innerText()).toContain('支付记录');
    // The drawer has slid fully into view before the screenshot.
    await expect
      .poll(async () => {
        const box = await page.locator('.ant-drawer-header').boundingBox();
        return box ? Math.round(box.x) : 9999;
      })
      .toBeLessThan(700);
    await screenshot(page, 'console-order');
  });

  it('the admin reads the audit log: the confirmation and the refused login, with who and from where', async () => {
    const page = await open('/admin/login');
    await page.getByLabel('用户名').fill(admin.username);
    await page.getByLabel('密码').fill(admin.password);
    await page.getByLabel('动态验证码').fill(totpCode(admin.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('menuitem', { name: '审计日志' }).click();
    const body = page.locator('.ant-table-tbody');
    await expect.poll(() => body.innerText()).toContain('确认线下付款');
    const confirmed = page.locator('tr', { hasText: '确认线下付款' });
    await expect.poll(() => confirmed.innerText()).toContain('zhangcw');
    await expect.poll(() => confirmed.innerText()).toContain('127.0.0.1');
    await expect.poll(() => body.innerText()).toContain('已拒绝');
    await screenshot(page, 'console-audit');
  });

  it('the admin creates a support account in the console; it logs in with its authenticator and may not refund', async () => {
    let page = await open('/admin/login');
    // The admin has no authenticator at hand: one of the recovery codes the CLI printed logs in once.
    await page.getByLabel('用户名').fill(admin.username);
    await page.getByLabel('密码').fill(admin.password);
    await page.getByLabel('动态验证码').fill(admin.recoveryCodes[0]!);
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('menuitem', { name: '运营账号' }).click();
    await page.getByRole('button', { name: '新建账号' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('用户名').fill('wangkf');
    await dialog.getByRole('combobox').click();
    await page.getByTitle('客服').click();
    await dialog.getByRole('button', { name: '新建账号' }).click();
    const secrets = page.locator('.ant-modal', { hasText: 'wangkf 的登录信息' });
    await expect.poll(() => secrets.innerText()).toContain('只显示这一次');
    const codes = secrets.locator('code');
    const password = await codes.nth(0).innerText();
    const totpSecret = await codes.nth(1).innerText();
    expect(password).toMatch(/^[a-z0-9]{20}$/);
    expect(totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await secrets.locator('img[alt="动态验证码二维码"]').count()).toBe(1);
    expect(await secrets.locator('.console-codes li').count()).toBe(10);
    await screenshot(page, 'console-staff-created');
    await secrets.getByRole('button', { name: '我已保存，关闭' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody').innerText()).toContain('wangkf');
    await page.context().close();

    // The new support account logs in with the secret the console showed.
    page = await open('/admin/login');
    await page.getByLabel('用户名').fill('wangkf');
    await page.getByLabel('密码').fill(password);
    await page.getByLabel('动态验证码').fill(totpCode(totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('客服');
    const menu = await page.locator('.ant-menu').innerText();
    expect(menu).toContain('订单');
    expect(menu).not.toContain('运营账号');
    expect(menu).not.toContain('审计日志');
    // Hiding a button is only a convenience: the server itself refuses support a refund.
    const refused = await page.evaluate(async (url) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderNo: `KY${'1'.repeat(20)}`, amountFen: 100, reason: '试图退款' }),
      });
      return res.json();
    }, `${API_PREFIX}/admin/refunds/create`);
    expect(refused).toMatchObject({
      code: 1004,
      message: '当前角色（客服）无权执行此操作，需要：管理员、财务',
    });
  });
});
