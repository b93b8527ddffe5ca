// The pages work under the server's Content-Security-Policy: each main page, logged out and
// logged in, renders with no policy violation reported by Chromium, and the page cannot be framed.
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../lib/browser.ts';
import { type RunningServer, startServer } from '../lib/server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Console lines and securitypolicyviolation events of a page, from its first script on. */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  );
  return problems;
}

const PUBLIC_PAGES = ['/', '/check', '/check/verify', '/login', '/register', '/aboutUs', '/ai/dissertation'];
const ACCOUNT_PAGES = [
  '/user/info',
  '/user/order/check',
  '/user/paymentRecords',
  '/user/address',
  '/user/invoice',
];

describe('pages under the Content-Security-Policy', () => {
  it('sends the policy with the page', async () => {
    const res = await fetch(`${server.baseUrl}/`);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-eval');
  });

  it('renders the public pages without a policy violation', { timeout: 120_000 }, async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const problems = await watch(page);
    try {
      for (const path of PUBLIC_PAGES) {
        await page.goto(path, { waitUntil: 'networkidle' });
        await expect.poll(() => page.locator('#root').innerText()).not.toContain('页面加载中');
      }
      expect(problems).toEqual([]);
    } catch (error) {
      await screenshot(page, 'security-public');
      throw error;
    } finally {
      await context.close();
    }
  });

  it('logs in by the sandbox WeChat QR and renders the account pages without a violation', {
    timeout: 120_000,
  }, async () => {
    const context = await newContext(browser, server.baseUrl);
    const page = await context.newPage();
    const problems = await watch(page);
    try {
      await page.goto('/login', { waitUntil: 'networkidle' });
      await page.getByRole('tab', { name: /微信/ }).click();
      await page.getByRole('button', { name: /模拟扫码/ }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
      for (const path of ACCOUNT_PAGES) {
        await page.goto(path, { waitUntil: 'networkidle' });
        await expect.poll(() => page.locator('#root').innerText()).not.toContain('页面加载中');
        expect(new URL(page.url()).pathname).toBe(path);
      }
      expect(problems).toEqual([]);
    } catch (error) {
      await screenshot(page, 'security-account');
      throw error;
    } finally {
      await context.close();
    }
  });
});
