// Industry news (issue 16): the landing page's newest articles, the list from /home/article, an
// article at its catch-all path; an unknown article path answered 404 and shown as the 404 page; and
// an editor (created with the CLI) who writes an article with a cover in the console at /admin/news,
// previews and publishes it, after which readers find it on /industryNews with its resized cover and
// the server's HTML carries its title and Open Graph tags. Screenshots: apps/e2e/test-results/news-*.png.
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { newContext, screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { repoRoot } from '../lib/server.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';

const journey = useJourney('news');
let page: Page;
let editor: StaffAccount;

beforeAll(async () => {
  // The editor's account is created the documented way, before the server holds the data folder.
  const dataDir = join(journey.work, 'data');
  editor = createStaffAccount(dataDir, 'wangbj', 'editor');
  await journey.start({ DATA_DIR: dataDir });
});

/** A new browser context's page, the test's page (screenshot on failure, closed after the test). */
async function newPage(): Promise<Page> {
  return journey.track(await (await newContext(journey.browser, journey.server.baseUrl)).newPage());
}

/** Waits for the element's opening animation (a modal zooming in) before a screenshot. */
const settle = (locator: Locator) =>
  locator.evaluate((el) =>
    Promise.all(
      (el as unknown as { getAnimations(o: object): { finished: Promise<unknown> }[] })
        .getAnimations({ subtree: true })
        .map((a) => a.finished),
    ),
  );

describe('industry news journeys', () => {
  it('reads news from the landing page: the list, a category, an article at its path', async () => {
    page = await newPage();
    await page.goto('/');
    const latest = page.getByTestId('latest-news');
    await expect.poll(() => latest.locator('li').count()).toBe(3);
    // Without a cover each card shows the category's placeholder.
    expect(await latest.locator('.news-cover--placeholder').count()).toBe(3);
    await latest.screenshot({ path: join(repoRoot, 'apps/e2e/test-results/news-landing-section.png') });
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

  it('shows the 404 page for an unknown article path, answered with status 404', async () => {
    page = await newPage();
    const response = await page.goto('/industryNews/policy/2099/no-such-article');
    expect(response?.status()).toBe(404);
    await expect
      .poll(() => page.getByTestId('not-found-message').innerText())
      .toBe('Page not found: /industryNews/policy/2099/no-such-article');
    expect(await page.getByTestId('news-article').count()).toBe(0);
    await screenshot(page, 'news-404');
  });

  it('answers a path that is no page of the app with status 404 and the 404 page; a deep known page with 200', async () => {
    page = await newPage();
    const response = await page.goto('/technologySearch/noSuchService');
    expect(response?.status()).toBe(404);
    await expect
      .poll(() => page.getByTestId('not-found-message').innerText())
      .toBe('Page not found: /technologySearch/noSuchService');
    expect((await page.goto('/technologySearch/techEvaluation'))?.status()).toBe(200);
  });

  it('an editor writes, previews and publishes an article with a cover in the console; readers see it', async () => {
    page = await newPage();
    // A cover picture: a rendered 1600×900 page, as an editor's designed banner would be.
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.setContent(
      '<div style="width:1600px;height:900px;display:flex;align-items:center;justify-content:center;' +
        'background:linear-gradient(135deg,#1d4f91,#3f7fd0);color:#fff;font:bold 96px sans-serif">提交前自查清单</div>',
    );
    const cover = await page.screenshot({ clip: { x: 0, y: 0, width: 1600, height: 900 } });
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.goto('/admin/news');
    await expect.poll(() => page.url()).toContain('/admin/login');
    await page.getByLabel('用户名').fill(editor.username);
    await page.getByLabel('密码').fill(editor.password);
    await page.getByLabel('动态验证码').fill(totpCode(editor.totpSecret, new Date()));
    await page.getByRole('button', { name: '登录' }).click();
    await expect.poll(() => page.locator('.console__header').innerText()).toContain('编辑');
    await page.getByRole('menuitem', { name: '资讯与案例' }).click();
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(3);
    await screenshot(page, 'news-console-list');

    await page.getByRole('button', { name: '新建文章' }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByLabel('标题').fill('毕业论文提交前的自查清单');
    await drawer.getByLabel('网址').fill('guide/2026/thesis-self-check');
    await drawer.getByLabel('摘要').fill('格式、引用、图表与查重报告四个方面，提交学位论文前逐项核对。');
    await drawer.getByLabel('标签').fill('毕业论文');
    await drawer.getByLabel('标签').press('Enter');
    await drawer.locator('input[type=file]').first().setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: cover,
    });
    await expect.poll(() => drawer.locator('.news-admin__cover img').count()).toBe(1);
    // The body in the HTML view, with something hostile in it: the server keeps only the allow-list.
    await drawer.getByRole('button', { name: 'HTML' }).click();
    await drawer
      .getByLabel('正文')
      .fill(
        '<h2>格式</h2><p>对照学校的撰写规范核对页眉、页码、目录与标题层级。</p>' +
          '<h2>引用</h2><p onclick="alert(1)">正文中的引用与参考文献表一一对应。</p><script>alert(1)</script>',
      );
    await drawer.getByRole('button', { name: '可视化' }).click();
    await drawer.getByRole('textbox', { name: '正文' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('最后，用查重报告的全文对照逐段检查标红的段落。');
    await screenshot(page, 'news-console-editor');
    await page.getByRole('button', { name: '保存并预览' }).click();
    const preview = page.getByTestId('article-preview');
    await expect.poll(() => preview.innerText()).toContain('正文中的引用与参考文献表一一对应');
    expect(await preview.innerText()).toContain('最后，用查重报告的全文对照逐段检查标红的段落。');
    expect(await preview.innerHTML()).not.toMatch(/onclick|<script/);
    await settle(page.locator('.ant-modal'));
    await screenshot(page, 'news-console-preview');
    await page.locator('.ant-modal-footer').getByRole('button', { name: '关闭' }).click();
    await drawer.locator('.ant-drawer-close').click();

    // A draft is not on the site yet.
    const row = page.locator('.ant-table-row', { hasText: '毕业论文提交前的自查清单' });
    await expect.poll(() => row.innerText()).toContain('草稿');
    await row.getByRole('button', { name: '发布' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect.poll(() => row.innerText()).toContain('已发布');
    await screenshot(page, 'news-console-published');

    // A reader finds it on /industryNews, with the cover the server resized.
    const reader = await (await newContext(journey.browser, journey.server.baseUrl)).newPage();
    await reader.goto('/industryNews');
    const item = reader.getByTestId('news-item').first();
    await expect.poll(() => item.innerText()).toContain('毕业论文提交前的自查清单');
    expect(await reader.getByTestId('news-list').innerText()).toContain('共 4 条');
    const srcset = await item.locator('img.news-cover').getAttribute('srcset');
    expect(srcset).toMatch(/w320\.webp 320w, .* \/media\/news\/[0-9a-f-]{36}\/w1536\.webp 1536w$/);
    await screenshot(reader, 'news-list-with-cover');
    await item.getByRole('link', { name: '毕业论文提交前的自查清单' }).click();
    await reader.waitForURL('**/industryNews/guide/2026/thesis-self-check');
    const article = reader.getByTestId('news-article');
    await expect.poll(() => article.innerText()).toContain('逐段检查标红的段落');
    await expect
      .poll(() =>
        article.locator('img.news-cover').evaluate((img) => (img as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(reader, 'news-article-with-cover');
    await reader.context().close();

    // What a crawler or a share preview reads, before any script.
    const html = await (
      await fetch(`${journey.server.baseUrl}/industryNews/guide/2026/thesis-self-check`)
    ).text();
    expect(html).toContain('<title>毕业论文提交前的自查清单 - 科研服务网</title>');
    expect(html).toContain('<meta property="og:title" content="毕业论文提交前的自查清单" />');
    expect(html).toMatch(
      /<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/media\/news\/[0-9a-f-]{36}\/og\.jpg" \/>/,
    );
  });
});
