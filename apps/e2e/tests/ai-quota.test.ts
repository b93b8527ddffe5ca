// AI quotas (issue 21, decision 0028): a student who keeps asking for titles is told in Chinese when
// to try again; the console's AI 用量 shows today against the daily token budget — looked at at
// 1366 and 390 px (apps/e2e/test-results/ai-quota-*.png).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';
import { MANY_USERS_ENV } from '../lib/users.ts';

const journey = useJourney('ai-quota');
let admin: StaffAccount;

beforeAll(async () => {
  const dataDir = join(journey.work, 'data');
  mkdirSync(dataDir);
  admin = createStaffAccount(dataDir, 'wangyy', 'admin');
  await journey.start({
    ...MANY_USERS_ENV,
    DATA_DIR: dataDir,
    AI_FREE_ACCOUNT_PER_MINUTE: '3',
    AI_FREE_ACCOUNT_PER_DAY: '20',
    LLM_DAILY_TOKEN_BUDGET: '20000',
  });
});

const toasts = (page: import('playwright-core').Page) =>
  page
    .locator('.ant-message, .toast-host, [role=alert]')
    .allInnerTexts()
    .then((t) => t.join(' '));

describe('AI quotas', () => {
  it('a student asking for titles again and again is told when to try again', async () => {
    const { page } = await journey.openAsNewUser('/ai/dissertation');
    await page.getByPlaceholder('例如：城市社区养老服务').fill('城市社区养老服务');
    const ask = page.getByRole('button', { name: '生成题目' });
    for (let i = 0; i < 3; i++) {
      await ask.click();
      await expect.poll(async () => (await ask.getAttribute('class')) ?? '').not.toContain('loading');
      await expect.poll(() => page.locator('.wr__titles').count()).toBe(1);
    }
    await ask.click();
    await expect.poll(() => toasts(page)).toMatch(/操作过于频繁，请 \d+ 秒后再试/);
    await screenshot(page, 'ai-quota-refused-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'ai-quota-refused-390');
  });

  it('the admin sees today against the budget on AI 用量, at 1366 and 390 px', async () => {
    const { page } = await journey.openAs(null, '/admin/login');
    await page.getByLabel('用户名').fill(admin.username);
    await page.getByLabel('密码').fill(admin.password);
    await page.getByLabel('动态验证码').fill(totpCode(admin.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('管理员');
    await page.getByRole('menuitem', { name: 'AI 用量' }).click();
    await expect.poll(() => page.getByText(/^今日用量（/).count()).toBe(1);
    await expect.poll(() => page.getByText('writing.title').count()).toBeGreaterThan(0);
    const text = await page.locator('main').innerText();
    expect(text).toContain('/ 预算 20,000');
    expect(text).toContain('每个账号免费 AI 调用：每分钟 3 次，每天 20 次');
    await screenshot(page, 'ai-quota-console-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing runs off the phone's screen sideways.
    await expect
      .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'))
      .toBeLessThanOrEqual(390);
    await screenshot(page, 'ai-quota-console-390');
  });
});
