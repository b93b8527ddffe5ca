// AIGC detection in a real browser (issue 14): a student picks AIGC检测 on /check, uploads a .txt
// with one assistant-style paragraph and one of their own, uses the free AIGC detection the account
// got at registration, and reads the report: the index labelled 参考值, the assistant-style paragraph shaded with its index and reasons
// on hover, their own paragraph not; downloads the PDF; finds the order in 查重订单.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL, TEMPLATED } from '../../../packages/aigc/test/samples.ts';
import { screenshot } from '../lib/browser.ts';
import { useJourney } from '../lib/journey.ts';
import { repoRoot } from '../lib/server.ts';
import { MANY_USERS_ENV } from '../lib/users.ts';

const journey = useJourney('aigc');
const { work } = journey;

beforeAll(async () => {
  const dist = join(work, 'dist');
  cpSync(join(repoRoot, 'apps/web/dist'), dist, { recursive: true });
  await journey.start({ WEB_DIST_DIR: dist, DATA_DIR: join(work, 'data'), ...MANY_USERS_ENV });
});

describe('AIGC detection journey', () => {
  it('uploads, uses the free detection, reads the shaded report with reasons on hover, downloads the PDF, finds it in 查重订单', async () => {
    const { page: p } = await journey.openAsNewUser('/check');

    const card = p.locator('[data-goods-id="aigc_detection_standard"]');
    await expect.poll(() => card.innerText()).toContain('AIGC检测');
    expect(await card.innerText()).toContain('1.00');
    await expect.poll(() => card.innerText()).toContain('你有 1 次免费AIGC检测');
    // This server's comparison library is empty, as on a fresh install: the similarity goods are
    // not sold (暂不可选 with the reason, issue 12); AIGC detection needs no library.
    const undergrad = p.locator('[data-goods-id="check_undergrad"]');
    expect(await undergrad.innerText()).toContain('暂不可选');
    expect(await undergrad.innerText()).toContain('暂无收录任何文献');
    await card.click();

    const txt = join(work, 'course-paper.txt');
    writeFileSync(txt, `人工智能与高校教学\n${TEMPLATED}\n${PERSONAL}\n`);
    await p.locator('input[type=file]').setInputFiles(txt);
    await p.getByLabel('论文题目').fill('人工智能与高校教学');
    await p.getByLabel('作者').fill('周小雨');
    await p.getByTestId('upload-submit').click();
    await p.getByTestId('check-order').waitFor();
    expect(await p.getByTestId('check-amount').innerText()).toBe('¥0.00');
    expect(await p.getByTestId('check-order').innerText()).toContain('使用免费AIGC检测');
    await p.getByTestId('start-free').click();

    const report = p.getByTestId('aigc-report');
    await report.waitFor({ timeout: 90_000 });
    const text = await report.innerText();
    expect(text).toContain('AIGC检测报告');
    expect(text).toContain('AIGC指数（参考值）');
    expect(text).toContain('仅供参考');

    const flagged = p.locator('.aigc-text__para[data-flagged="true"]');
    expect(await flagged.count()).toBe(1);
    expect(await flagged.innerText()).toBe(TEMPLATED);
    // shaded by its index (inline background, red with an alpha that grows with the index)
    expect(await flagged.getAttribute('style')).toMatch(/background: rgba\(207, 19, 34, 0\.\d+\)/);
    const own = p.locator('.aigc-text__para[data-flagged="false"]');
    expect(await own.innerText()).toBe(PERSONAL);
    await flagged.hover();
    const tip = p.locator('.ant-tooltip:not(.ant-tooltip-hidden)');
    await expect.poll(() => tip.innerText()).toContain('（参考值）');
    expect(await tip.innerText()).toMatch(/AIGC指数 \d+\.\d/);
    await screenshot(p, 'aigc-report');

    const reportNo = await p.getByTestId('report-no').innerText();
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: 'PDF 检测报告' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('人工智能与高校教学-AIGC检测报告.pdf');
    const pdfFile = join(work, 'aigc.pdf');
    await download.saveAs(pdfFile);
    expect(readFileSync(pdfFile).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = spawnSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
    expect(pdf.status).toBe(0);
    expect(pdf.stdout).toContain(reportNo);
    expect(pdf.stdout).toContain('参考值');

    // Verification shows the signed AIGC index, not similarity rates.
    const index = await p.getByTestId('aigc-index').innerText();
    await p.getByRole('link', { name: /核验报告真伪/ }).click();
    const verified = p.getByTestId('verify-result');
    await verified.waitFor();
    const facts = await verified.innerText();
    expect(facts).toContain('报告真实有效');
    expect(facts).toContain('AIGC指数（参考值）');
    expect(facts).toContain(index);
    expect(facts).not.toContain('总文字复制比');

    await p.goto('/user/order/check');
    const row = p.locator('tr', { hasText: '人工智能与高校教学' });
    await expect.poll(() => row.innerText()).toContain('AIGC');
  }, 240_000);
});
