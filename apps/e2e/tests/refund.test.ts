// A refund ends the commission (issue 23, decision 0031): a student's paid 科技查新 (¥800) is
// refunded by a finance operator in the console — the drawer fills in what is left and nothing is
// sent before a dialog naming ¥800.00 and the order is confirmed — and the student, on a 390 px
// phone, sees 已退款 in 我的订单 › 检索查新订单 (the page no wider than the phone) and gets the SMS.
// Screenshots: apps/e2e/test-results/refund-*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';
import { api, MANY_USERS_ENV, registerUser } from '../lib/users.ts';

const journey = useJourney('refund');
let finance: StaffAccount;

beforeAll(async () => {
  const dataDir = join(journey.work, 'data');
  mkdirSync(dataDir);
  finance = createStaffAccount(dataDir, 'qianli', 'finance');
  await journey.start({ ...MANY_USERS_ENV, DATA_DIR: dataDir });
});

const chinaDay = (days: number) =>
  new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

describe('refunding a commission', () => {
  it('is confirmed with ¥ and the order, ends the commission and is announced', async () => {
    const base = journey.server.baseUrl;
    const student = await registerUser(base);
    const c = await api<{ commissionId: string; orderId: string }>(
      base,
      '/commission/submit',
      {
        service: 'tech_search',
        nameZh: '基于深度学习的农田土壤墒情预测方法',
        nameEn: 'Soil moisture prediction for farmland based on deep learning',
        purpose: '立项',
        scope: 'domestic',
        points: ['融合气象与遥感数据的墒情预测模型'],
        summary:
          '本项目针对农田土壤墒情监测成本高、时效差的问题，提出一种融合气象站观测、遥感影像与土壤传感器数据的深度学习预测方法，在三个省份的试验田进行了验证。',
        keywordsZh: ['土壤墒情', '深度学习', '遥感'],
        keywordsEn: ['soil moisture', 'deep learning', 'remote sensing'],
        urgency: 'standard',
        deadline: chinaDay(20),
        delivery: 'pdf',
        contactName: '王老师',
        contactPhone: '13912345678',
        fileIds: [],
      },
      student.token,
    );
    const qr = await api<{ outTradeNo: string; orderNo: string }>(
      base,
      '/order/pay',
      { orderId: c.orderId, payType: 'wx' },
      student.token,
    );
    await api(base, '/__dev/pay', { orderNo: qr.outTradeNo });
    const statusOf = async () =>
      (
        await api<{ status: string }>(
          base,
          '/commission/detail',
          { commissionId: c.commissionId },
          student.token,
        )
      ).status;
    await expect.poll(statusOf, { timeout: 20_000, interval: 500 }).toBe('processing');

    // Finance finds the order in the console; the drawer fills in what is left to refund, and the
    // dialog names it with the order before anything happens.
    const { page } = await journey.openAs(null, '/admin/login');
    await page.getByLabel('用户名').fill(finance.username);
    await page.getByLabel('密码').fill(finance.password);
    await page.getByLabel('动态验证码').fill(totpCode(finance.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('财务');
    await page.getByRole('menuitem', { name: '订单' }).click();
    await page.getByLabel('订单号').fill(qr.orderNo);
    await page.getByRole('button', { name: '搜索' }).click();
    const row = page.locator('tr', { hasText: qr.orderNo });
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.locator('.ant-drawer-open').first();
    await expect.poll(() => drawer.locator('.ant-input-number-input').first().inputValue()).toBe('800.00');
    await drawer.getByLabel('退款原因').fill('用户申请退款');
    await drawer.getByRole('button', { name: '提交退款' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '确认退款' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const text = await dialog.innerText();
    expect(text).toContain(qr.orderNo);
    expect(text).toContain('¥800.00');
    expect(text).toContain('全额退回');
    await screenshot(page, 'refund-confirm-1366');
    // Not yet refunded while the dialog is open.
    expect(await statusOf()).toBe('processing');
    await dialog.getByRole('button', { name: /确认退款 ¥800\.00/ }).click();
    await expect.poll(statusOf, { timeout: 20_000, interval: 500 }).toBe('refunded');

    // The student, on a phone, sees 已退款 and a page no wider than the phone.
    const phone = await journey.openAs(student, '/user/order/commission');
    const p = phone.page;
    await p.setViewportSize({ width: 390, height: 844 });
    await p.reload();
    await expect
      .poll(() => p.locator('.commission-list').innerText(), { timeout: 20_000 })
      .toContain('已退款');
    const width = Number(await p.evaluate('document.documentElement.scrollWidth'));
    await screenshot(p, 'refund-user-commission-390');
    expect(width).toBeLessThanOrEqual(390);

    // The SMS notice (sandbox outbox): the order number.
    await expect
      .poll(
        async () => {
          const res = await fetch(`${base}/__dev/sms/last?phone=${student.phone}`);
          return ((await res.json()) as { data: { type: string; code: string } | null }).data;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toMatchObject({ type: 'order_refunded', code: qr.orderNo });
  });
});
