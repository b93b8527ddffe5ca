// Debian's Chromium driven by playwright-core (never a downloaded browser), zh-CN locale,
// a screenshot saved under apps/e2e/test-results when a journey fails.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { repoRoot } from './server.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: 'zh-CN', viewport: { width: 1366, height: 900 } });
}

/** Saves a full-page screenshot; used on failure and by the look-at-it script. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(repoRoot, 'apps/e2e/test-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^\w\u4e00-\u9fa5-]+/g, '_')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
