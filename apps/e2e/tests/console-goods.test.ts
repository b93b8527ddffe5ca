// The console's goods and prices (issue 15): an admin created with the CLI logs in with TOTP, changes
// the 本科 check's price on 商品与价格, and a student opening /check sees the new price at once.
// Screenshots of the goods, site info, users and jobs pages are saved in apps/e2e/test-results
// (console-goods-*.png).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';

const journey = useJourney('console-goods');
let admin: StaffAccount;

beforeAll(async () => {
  const dataDir = join(journey.work, 'data');
  mkdirSync(dataDir);
  admin = createStaffAccount(dataDir, 'wanggl', 'admin');
  await journey.start({ DATA_DIR: dataDir });
});

describe('console goods and prices', () => {
  it('an admin changes a price and /check shows the new price', async () => {
    const { page } = await journey.openAs(null, '/admin/goods');
    await expect.poll(() => page.url()).toContain('/admin/login');
    await page.getByLabel('用户名').fill(admin.username);
    await page.getByLabel('密码').fill(admin.password);
    await page.getByLabel('动态验证码').fill(totpCode(admin.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('管理员');

    await page.getByRole('menuitem', { name: '商品与价格' }).click();
    const row = page.locator('tr', { hasText: '本科毕业论文查重' });
    await expect.poll(() => row.count()).toBe(1);
    await screenshot(page, 'console-goods-list');
    await row.getByRole('button', { name: '编辑' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.locator('input#unitPrice').fill('3.5');
    await screenshot(page, 'console-goods-edit');
    await drawer.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => row.locator('td').nth(3).innerText()).toBe('3.50');

    const student = await journey.openAs(null, '/check');
    const card = student.page
      .locator('*', { hasText: '本科毕业论文查重' })
      .filter({ hasText: '元/千字' })
      .last();
    await expect.poll(() => card.innerText()).toContain('3.50');
    await screenshot(student.page, 'console-goods-check-page');

    await page.getByRole('menuitem', { name: '站点信息' }).click();
    await expect.poll(() => page.getByLabel('联系电话').inputValue()).not.toBe('');
    await screenshot(page, 'console-goods-site');
    await page.getByRole('menuitem', { name: '用户' }).click();
    await page.getByRole('tab', { name: '导出/注销记录' }).click();
    await screenshot(page, 'console-goods-requests');
    await page.getByRole('menuitem', { name: '任务' }).click();
    await page.getByRole('tab', { name: '卡住的任务' }).click();
    await screenshot(page, 'console-goods-jobs');
  });
});
