// 降重 in a real browser (issue 14), against the LLM sandbox: a student pastes text that copies a
// library record on /reduction, orders and pays in the payment sandbox, watches the rewrite, sees
// before/after side by side with the similarity rate and AIGC index before and after, downloads
// the .docx and finds the reduction in 降重订单. Every rewrite is marked 【沙箱示例】.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../lib/browser.ts';
import { importLibrary, payInSandbox, useJourney } from '../lib/journey.ts';

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
  await journey.start({ DATA_DIR: dataDir });
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
