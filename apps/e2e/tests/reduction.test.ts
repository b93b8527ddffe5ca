// 降重 in a real browser (issue 14), against the LLM sandbox: a student pastes text that copies a
// library record on /reduction, orders and pays in the payment sandbox, watches the rewrite, sees
// before/after side by side with the similarity rate and AIGC index before and after, downloads
// the .docx and finds the reduction in 降重订单. Every rewrite is marked 【沙箱示例】.
// 降AIGC the same way on /reduction/aigc, where the page must say what the re-measurement found (the
// sandbox hardly moves the AIGC index: no drop may be claimed that the figures do not show); and
// report → 降重: a finished check report's 一键降重 orders the rewrite of its flagged paragraphs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATED } from '../../../packages/aigc/test/samples.ts';
import { screenshot } from '../lib/browser.ts';
import { importLibrary, payInSandbox, useJourney } from '../lib/journey.ts';
import { MANY_USERS_ENV } from '../lib/users.ts';

const SOURCE =
  '研究表明，随着互联网技术的不断发展，在线教育平台的用户规模显著扩大，因此提高教学质量成为平台发展的重要问题。' +
  '通过对平台数据进行分析，可以发现学习者的参与程度对学习效果具有重要影响，平台需要采用有效的方法促进学习者持续参与。';
const PASTED = [
  '第一章 绪论',
  `${SOURCE}2020年全国在线教育用户达到3.42亿人，占网民整体的34.6%[1]。`,
  '目前相关研究主要集中在平台功能分析方面，对学习者参与的作用机制存在不足[2-4]。',
].join('\n');

const journey = useJourney('reduction');
const { work } = journey;
const dataDir = join(work, 'data');

beforeAll(async () => {
  importLibrary(dataDir, work, [
    {
      id: 'edu-2021-001',
      title: '在线教育平台学习者参与研究',
      authors: ['李明'],
      year: 2021,
      source: '教育研究',
      text: SOURCE.repeat(3),
    },
  ]);
  await journey.start({ DATA_DIR: dataDir, ...MANY_USERS_ENV });
});

describe('降重 journey', () => {
  it('goes from pasted text to a paid rewrite, before/after with both measures, and a .docx', async () => {
    const { context, page: p } = await journey.openAsNewUser('/reduction');
    expect(await p.locator('body').innerText()).not.toContain('正在接入中');
    await p.getByLabel('标题（选填）').fill('在线教育平台研究');
    await p.getByLabel('正文').fill(PASTED);
    await expect.poll(() => p.locator('body').innerText()).toContain('预计费用 5.00 元');
    await screenshot(p, 'reduction-1-paste');
    await p.getByRole('button', { name: '提交并支付' }).click();

    expect(await payInSandbox(context, p)).toContain('5.00');

    await expect
      .poll(() => p.getByTestId('reduction-status').innerText(), { timeout: 60_000 })
      .toBe('已完成');
    await p.getByTestId('reduction-measures').waitFor();
    const measures = await p.getByTestId('reduction-measures').innerText();
    expect(measures).toContain('文字复制比');
    expect(measures).toMatch(/\d+\.\d%\s*→\s*\d+\.\d%/);
    expect(measures).toMatch(/AIGC指数[\s\S]*\d+\.\d\s*→\s*\d+\.\d/);
    expect(await p.locator('body').innerText()).toContain('不是人工智能改写结果');
    const rewritten = p.locator('[data-testid="reduction-pair"][data-outcome="rewritten"]').first();
    expect(await rewritten.innerText()).toContain('【沙箱示例】');
    expect(await rewritten.locator('ins').count()).toBeGreaterThan(0);
    expect(await rewritten.innerText()).toContain('34.6%[1]');
    await screenshot(p, 'reduction-2-result');

    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: '下载 Word 文档' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/降重\.docx$/);
    const file = join(work, 'reduced.docx');
    await download.saveAs(file);
    const xml = new TextDecoder().decode(unzipSync(new Uint8Array(readFileSync(file)))['word/document.xml']);
    const text = xml.replace(/<[^>]+>/g, '');
    expect(text).toContain('【沙箱示例】');
    expect(text).toContain('3.42亿');

    await p.goto('/user/order/reduction');
    const row = p.getByTestId('reduction-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('已完成');
    await screenshot(p, 'reduction-3-orders');
  });
});

/** The AIGC index before and after as the result page shows them. */
function aigcFigures(measures: string): [number, number] {
  const m = measures.match(/AIGC指数[^\n]*\n\s*(\d+\.\d)\s*→\s*(\d+\.\d)/);
  if (!m) throw new Error(`no AIGC figures in: ${measures}`);
  return [Number(m[1]), Number(m[2])];
}

describe('降AIGC journey', () => {
  it('rewrites templated text after payment and reports honestly what the detector found', async () => {
    const { context, page: p } = await journey.openAsNewUser('/reduction/aigc');
    await p.getByLabel('标题（选填）').fill('人工智能与教育');
    await p.getByLabel('正文').fill(`人工智能与教育\n${TEMPLATED}`);
    await expect.poll(() => p.locator('body').innerText()).toContain('预计费用');
    await p.getByRole('button', { name: '提交并支付' }).click();
    await payInSandbox(context, p);

    await expect
      .poll(() => p.getByTestId('reduction-status').innerText(), { timeout: 60_000 })
      .toBe('已完成');
    await p.getByTestId('reduction-measures').waitFor();
    const [before, after] = aigcFigures(await p.getByTestId('reduction-measures').innerText());
    const verdict = await p.getByTestId('reduction-verdict').innerText();
    if (before - after >= 5) expect(verdict).toBe(`AIGC指数由 ${before.toFixed(1)} 降至 ${after.toFixed(1)}`);
    else expect(verdict).toMatch(/仅略有下降|基本未变|反而升高/);
    expect(verdict).toContain(`${before.toFixed(1)}`);
    expect(await p.locator('body').innerText()).toContain('不是人工智能改写结果');
    const rewritten = p.locator('[data-testid="reduction-pair"][data-outcome="rewritten"]');
    expect(await rewritten.count()).toBeGreaterThan(0);
    await screenshot(p, 'reduction-4-aigc-result');

    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: '下载 Word 文档' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
  });
});

describe('report → 降重 journey', () => {
  it("orders the rewrite of a finished report's flagged paragraphs from the report", async () => {
    const { context, page: p } = await journey.openAsNewUser('/check');
    const undergrad = p.locator('[data-goods-id="check_undergrad"]');
    await expect.poll(() => undergrad.innerText()).toContain('免费');
    await undergrad.click();
    const txt = join(work, 'online-education.txt');
    writeFileSync(txt, `${PASTED}\n`);
    await p.locator('input[type=file]').setInputFiles(txt);
    await p.getByLabel('论文题目').fill('在线教育平台研究');
    await p.getByLabel('作者').fill('李小华');
    await p.getByTestId('upload-submit').click();
    await p.getByTestId('start-free').click();
    await p.getByTestId('check-report').waitFor({ timeout: 90_000 });

    await p.getByTestId('reduce-report').click();
    expect(await p.locator('.ant-popover').innerText()).toContain('只改写报告中标红的重复段落');
    await p.getByRole('button', { name: '生成降重订单' }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/reduction');
    await screenshot(p, 'reduction-5-from-report-pay');
    await payInSandbox(context, p);

    await expect
      .poll(() => p.getByTestId('reduction-status').innerText(), { timeout: 60_000 })
      .toBe('已完成');
    const rewritten = p.locator('[data-testid="reduction-pair"][data-outcome="rewritten"]');
    await rewritten.first().waitFor();
    expect(await rewritten.count()).toBe(1);
    expect(await rewritten.innerText()).toContain('34.6%[1]');
    const untouched = p.locator('[data-testid="reduction-pair"][data-outcome="unchanged"]');
    expect(await untouched.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('目前相关研究主要集中在平台功能分析方面')]),
    );
    await screenshot(p, 'reduction-6-from-report-result');
  });
});
