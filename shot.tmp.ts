import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { totpCode } from './apps/server/src/modules/console/totp.ts';

const base = 'http://localhost:3104';
const admin = JSON.parse(readFileSync('/tmp/console-shot/admin.json', 'utf8'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
await page.goto(`${base}/admin/login`);
await page.getByLabel('用户名').fill(admin.username);
await page.getByLabel('密码').fill(admin.password);
await page.getByLabel('动态验证码').fill(totpCode(admin.totpSecret, new Date()));
await page.getByRole('button', { name: /登\s*录/ }).click();
await page.waitForURL(`${base}/admin`);
const step = process.argv[2] ?? 'staff';
if (step === 'staff') {
  await page.goto(`${base}/admin/staff`);
  await page.getByRole('button', { name: '新建账号' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('用户名').fill(`lihua${Date.now() % 1000}`);
  await dialog.getByRole('combobox').click();
  await page.getByTitle('财务').click();
  await dialog.getByRole('button', { name: '新建账号' }).click();
  await page.getByText('的登录信息').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/console-shots/staff-secrets.png' });
  await page.getByRole('button', { name: '我已保存，关闭' }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/console-shots/staff-list.png' });
} else {
  await page.goto(`${base}/admin/${step}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/console-shots/${step.replace(/\//g, '-')}.png`, fullPage: true });
}
await browser.close();
