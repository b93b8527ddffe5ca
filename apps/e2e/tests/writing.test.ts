import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../lib/browser.ts';
import { importLibrary, payInSandbox, useJourney } from '../lib/journey.ts';

const LIBRARY = [
  {
    id: 'care-2021-001',
    title: '城市社区养老服务供给模式研究',
    authors: ['王明', '李华'],
    year: 2021,
    source: '人口研究',
    text: '社区养老服务是应对人口老龄化的重要途径。本文基于多地调查数据，分析了社区养老服务供给主体、供给内容与供给方式，指出政府、市场与社会组织协同供给的必要性。'.repeat(
      3,
    ),
  },
  {
    id: 'care-2022-002',
    title: '智慧养老平台的使用意愿与影响因素',
    authors: ['张敏'],
    year: 2022,
    source: '社会保障研究',
    text: '智慧养老平台借助信息技术整合服务资源。研究发现，老年人的数字素养、家庭支持与平台易用性显著影响其使用意愿。'.repeat(
      3,
    ),
  },
];

const journey = useJourney('writing');
const { work } = journey;
const results = join(import.meta.dirname, '../test-results');
const dataDir = join(work, 'data');

beforeAll(async () => {
  importLibrary(dataDir, work, LIBRARY);
  await journey.start({ DATA_DIR: dataDir });
});

describe('AI writing journey', () => {
  it('goes from a topic to a paid full text and a .docx with real references and AI labels', async () => {
    const { context, page: p } = await journey.openAsNewUser('/ai/dissertation');

    await p.getByLabel('论文主题').fill('城市社区养老服务');
    await p.getByLabel('学科专业').fill('社会学');
    await p.getByRole('button', { name: '生成题目' }).click();
    const first = p.locator('.wr__titles .ant-radio-wrapper').first();
    await first.waitFor();
    expect(await p.getByTestId('writing-sandbox-notice').innerText()).toContain('不是人工智能写作结果');
    expect(await first.innerText()).toContain('【沙箱示例】');
    await first.click();
    expect(await p.getByLabel('论文题目').inputValue()).toContain('城市社区养老服务');
    expect(await p.getByText('剩余免费提纲 1 次').count()).toBe(1);
    await screenshot(p, 'writing-1-titles');
    await p.getByRole('button', { name: '保存并生成提纲' }).click();

    // The outline of the free trial, editable; the URL names the writing.
    const firstRow = p.getByTestId('outline-row-1');
    await firstRow.waitFor({ timeout: 30_000 });
    expect(new URL(p.url()).searchParams.get('id')).toBeTruthy();
    await p.getByLabel('条目 1 名称').fill('绪论');
    await p.getByTestId('outline-row-1.2').getByRole('checkbox', { name: '表格' }).check();
    await p.getByTestId('outline-row-3.1').getByRole('checkbox', { name: '图片' }).check();
    await p.getByRole('button', { name: '保存提纲' }).click();
    await expect.poll(() => p.locator('body').innerText()).toContain('合计');
    await p.getByRole('button', { name: '生成摘要' }).click();
    await p.locator('.wr__abstract').waitFor();
    expect(await p.locator('.wr__abstract').innerText()).toContain('【沙箱示例】');
    await screenshot(p, 'writing-2-outline');

    // The library's real records for the title, with their number.
    const refs = p.getByTestId('writing-references');
    await refs.getByRole('button', { name: '检索', exact: true }).click();
    await expect
      .poll(() => refs.innerText(), { timeout: 30_000 })
      .toMatch(/在文献库中检索到 \d+ 篇相关文献（只列出真实存在的记录，不编造）/);
    expect(await refs.locator('.wr__refs li').count()).toBeGreaterThan(0);
    await screenshot(p, 'writing-2b-references');

    // Order and pay in the sandbox.
    await p.getByRole('button', { name: '提交订单并支付' }).click();
    const dialog = p.locator('.pay-dialog');
    const sandboxLink = dialog.getByRole('link', { name: /模拟支付/ });
    await sandboxLink.waitFor({ timeout: 30_000 });
    expect(await dialog.innerText()).toContain('99.00');
    const payPage = await context.newPage();
    await payPage.goto((await sandboxLink.getAttribute('href')) ?? '');
    await payPage.getByRole('button', { name: /支付/ }).first().click();
    await expect.poll(() => payPage.locator('body').innerText()).toContain('支付成功');
    await payPage.close();

    // Written section by section; then the download.
    await expect.poll(() => p.getByTestId('writing-status').innerText(), { timeout: 60_000 }).toBe('已完成');
    expect(await p.locator('body').innerText()).toContain('已检索到 2 篇文献库中的相关文献');
    await screenshot(p, 'writing-3-done');
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: '下载 Word 文档' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/毕业论文\.docx$/);
    const file = join(work, 'draft.docx');
    await download.saveAs(file);
    const files = unzipSync(new Uint8Array(readFileSync(file)));
    const text = new TextDecoder().decode(files['word/document.xml']).replace(/<[^>]+>/g, '');
    expect(text).toContain('第1章 绪论');
    expect(text).toContain('本文内容由人工智能生成');
    expect(text).toContain('参考文献');
    expect(text).toMatch(
      /\[1\] (王明, 李华\. 城市社区养老服务供给模式研究|张敏\. 智慧养老平台的使用意愿与影响因素)\[J\]/,
    );
    expect(new TextDecoder().decode(files['docProps/custom.xml'])).toContain('AIGC');
    // The 3.1 item asked for a picture: the sandbox's marked sample data drawn as a chart.
    expect(Object.keys(files).filter((f) => /^word\/media\/.+\.png$/.test(f))).toHaveLength(1);
    expect(text).toContain('图3-1 【沙箱示例】沙箱示例数据（虚构）');

    // LibreOffice (Debian's package, installed by scripts/ensure-chromium.sh) opens it and prints
    // it to PDF; its first pages are saved as pictures beside the screenshots to be looked at.
    execFileSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', work, file], {
      timeout: 180_000,
      env: { ...process.env, HOME: work },
      stdio: 'ignore',
    });
    const pdf = join(work, 'draft.pdf');
    const pdfText = execFileSync('pdftotext', ['-layout', pdf, '-']).toString();
    // pdftotext spaces out the headings' characters (第 1 章, 参 考 文 献).
    expect(pdfText).toMatch(/第\s*1\s*章\s*绪\s*论/);
    expect(pdfText).toMatch(/参\s*考\s*文\s*献/);
    expect(pdfText).toContain('本文内容由人工智能生成');
    expect(pdfText).toMatch(/图\s*3-1\s*【沙箱示例】沙箱示例数据/);
    expect(Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf]).toString())?.[1])).toBeGreaterThan(3);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '50',
      '-f',
      '1',
      '-l',
      '6',
      pdf,
      join(results, 'writing-docx-page'),
    ]);

    // One section revised as asked (the first free revision); the others stay.
    const revise = p.getByTestId('writing-revise');
    expect(await revise.getByTestId('writing-revisions-left').innerText()).toBe('本篇还可免费修改 2 次');
    await revise.getByLabel('修改要求（选填）').fill('补充数据来源说明');
    await revise.getByRole('button', { name: '修改本节' }).click();
    await expect
      .poll(() => revise.getByTestId('writing-revisions-left').innerText(), { timeout: 30_000 })
      .toBe('本篇还可免费修改 1 次');
    await expect.poll(() => revise.innerText(), { timeout: 60_000 }).not.toContain('正在修改');
    await screenshot(p, 'writing-3b-revise');
    // 修改章节 lists every written section, the conclusion chapter without sub-sections too.
    await revise.getByRole('combobox').click();
    const conclusion = p.locator('.ant-select-item-option', { hasText: '第5章 【沙箱示例】结论与展望' });
    await conclusion.waitFor();
    await screenshot(p, 'writing-3c-revise-sections');
    await p.setViewportSize({ width: 390, height: 844 });
    await screenshot(p, 'writing-3c-revise-sections-390');
    expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await conclusion.click();
    await p.setViewportSize({ width: 1366, height: 900 });

    // 写作订单 lists it with its status.
    await p.goto('/user/order/write');
    const row = p.getByTestId('writing-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('已完成');
    await screenshot(p, 'writing-4-orders');
  });

  it('a draft whose every section the model refuses is refunded, and the page says so only once it is', async () => {
    const { context, page: p } = await journey.openAsNewUser('/ai/assignment');
    await p.getByLabel('论文主题').fill('社区养老服务');
    await p.getByLabel('论文题目').fill('社区养老服务供给研究');
    await p.getByRole('button', { name: '保存并生成提纲' }).click();
    await p.getByTestId('outline-row-1').waitFor();
    // From now on the model refuses every section (the sandbox's content fault).
    const faults = (body: object) =>
      fetch(`${journey.server.baseUrl}/__dev/llm/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await faults({ refusal: 500, onlyTask: 'writing.section' });
    try {
      await p.getByRole('button', { name: '提交订单并支付' }).click();
      await payInSandbox(context, p);
      const failed = p.getByTestId('writing-failed');
      await failed.waitFor({ timeout: 90_000 });
      await expect.poll(() => failed.innerText(), { timeout: 60_000 }).toContain('全文生成失败，已自动退款');
      expect(await failed.innerText()).toContain('款项已原路退回');
      expect(await p.locator('body').innerText()).not.toContain('抱歉，我无法');
      await screenshot(p, 'writing-5-failed-refunded');
      await p.setViewportSize({ width: 390, height: 844 });
      await screenshot(p, 'writing-5-failed-refunded-390');
      expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await faults({ reset: true });
    }
  });
});
