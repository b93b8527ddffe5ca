// Industry news (issue 16): the landing page's newest articles, the list from /home/article, an article at its catch-all path, and an
// unknown article path that shows the 404 page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot } from '../lib/browser.ts';
import { type RunningServer, startServer } from '../lib/server.ts';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await screenshot(page, `news-${ctx.task.name}`);
  await page?.context().close();
});

describe('industry news journeys', () => {
  it('reads news from the landing page: the list, a category, an article at its path', async () => {
    page = await (await newContext(browser, server.baseUrl)).newPage();
    await page.goto('/');
    const latest = page.getByTestId('latest-news');
    await expect.poll(() => latest.locator('li').count()).toBe(3);
    await latest.getByRole('link', { name: '更多资讯' }).click();
    await page.waitForURL('**/industryNews');
    const list = page.getByTestId('news-list');
    await expect.poll(() => page.getByTestId('news-item').count()).toBe(3);
    expect(await list.innerText()).toContain('共 3 条');

    await list.locator('.ant-segmented').getByText('政策解读', { exact: true }).click();
    await expect.poll(() => page.getByTestId('news-item').count()).toBe(1);
    expect(await list.innerText()).toContain('共 1 条');

    await list.locator('.ant-segmented').getByText('全部', { exact: true }).click();
    await page.getByRole('link', { name: '如何读懂一份论文查重报告' }).click();
    await page.waitForURL('**/industryNews/guide/2026/read-check-report');
    const article = page.getByTestId('news-article');
    await expect.poll(() => article.innerText()).toContain('单篇最大文字复制比');
    expect(await page.title()).toContain('如何读懂一份论文查重报告');
  });

  it('shows the 404 page for an unknown article path', async () => {
    page = await (await newContext(browser, server.baseUrl)).newPage();
    await page.goto('/industryNews/policy/2099/no-such-article');
    await expect
      .poll(() => page.getByTestId('not-found-message').innerText())
      .toBe('Page not found: /industryNews/policy/2099/no-such-article');
    expect(await page.getByTestId('news-article').count()).toBe(0);
  });
});
