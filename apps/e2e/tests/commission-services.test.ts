// 收录引用检索报告 and 文献下载 as commissioned services (issue 16), in a real browser: a researcher
// fills the form (papers and databases / citations), sees the price and the turnaround before
// submitting, pays in the payment sandbox and sees the 预计完成日期; an operator (fulfilment, console
// login with TOTP or a recovery code) finds it in 委托办理 by its due date, uploads the report and
// marks it done; the researcher gets the e-mail (mail sandbox outbox) and downloads the very same
// file from 我的订单 › 检索查新订单. Screenshots: apps/e2e/test-results/services-*.png.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { newContext, screenshot } from '../lib/browser.ts';
import { deliverReport } from '../lib/commission.ts';
import { payInSandbox, useJourney } from '../lib/journey.ts';
import { createStaffAccount, type StaffAccount } from '../lib/staff.ts';
import { MANY_USERS_ENV } from '../lib/users.ts';

const journey = useJourney('services');
const { work } = journey;
const dataDir = join(work, 'data');
let staff: StaffAccount;

beforeAll(async () => {
  staff = createStaffAccount(dataDir, 'liuyy', 'fulfilment');
  await journey.start({ ...MANY_USERS_ENV, DATA_DIR: dataDir });
});

/** YYYY-MM-DD in China time, `days` from today. */
function inDays(days: number): string {
  return new Date(Date.now() + 8 * 3600_000 + days * 24 * 3600_000).toISOString().slice(0, 10);
}

/** The mails the sandbox kept for `to` (DATA_DIR/sandbox/mail-outbox/*.eml), their text decoded. */
function mailsTo(to: string): { subject: string; text: string }[] {
  const dir = join(dataDir, 'sandbox', 'mail-outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((raw) => new RegExp(`^To: ${to.replace(/\./g, '\\.')}`, 'm').test(raw))
    .map((raw) => {
      const [headers = '', body = ''] = raw.split(/\r?\n\r?\n/);
      const subject = decodeWords(/^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(headers)?.[1] ?? '');
      const text = /Content-Transfer-Encoding: base64/i.test(headers)
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
      return { subject, text };
    });
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=) as text. */
function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** A real PDF with a text layer, printed by the browser. */
async function printPdf(context: BrowserContext, html: string, file: string): Promise<string> {
  const maker = await context.newPage();
  await maker.setContent(html);
  writeFileSync(file, await maker.pdf());
  await maker.close();
  return file;
}

/** The operator's console, logged in with `code` (TOTP or a recovery code), at 委托办理. */
async function openConsole(code: string): Promise<{ staffContext: BrowserContext; op: Page }> {
  const staffContext = await newContext(journey.browser, journey.server.baseUrl);
  const op = await staffContext.newPage();
  await op.goto('/admin/login');
  await op.getByLabel('用户名').fill(staff.username);
  await op.getByLabel('密码').fill(staff.password);
  await op.getByLabel('动态验证码').fill(code);
  await op.getByRole('button', { name: '登录' }).click();
  await op.getByRole('menuitem', { name: '委托办理' }).click();
  return { staffContext, op };
}

/**
 * The operator finds the commission in 委托办理 (处理中, earliest due first) with its due date,
 * uploads `reportFile` and marks it done.
 */
async function deliverInConsole(
  commissionNo: string,
  dueDate: string,
  reportFile: string,
  code: string,
  shot: string,
) {
  const { staffContext, op } = await openConsole(code);
  const row = op.locator('tr', { hasText: commissionNo });
  await expect.poll(() => row.count()).toBe(1);
  expect(await row.innerText()).toContain(dueDate);
  expect(await row.innerText()).not.toContain('已超期');
  await screenshot(op, `${shot}-console-queue`);
  await row.getByRole('button', { name: '办理' }).click();
  await deliverReport(op, reportFile);
  await staffContext.close();
}

/** From 我的订单 › 检索查新订单 the user downloads `file`; the bytes are the operator's. */
async function downloadFromOrders(p: Page, commissionNo: string, file: string, shot: string) {
  await p.goto('/user/order/commission');
  const mine = p.locator('.commission-list tr', { hasText: commissionNo });
  await expect.poll(() => mine.innerText()).toContain('已完成');
  await mine.getByRole('button', { name: '详情' }).click();
  const detail = p.locator('.ant-drawer');
  const name = file.split('/').at(-1)!;
  await expect.poll(() => detail.innerText()).toContain(name);
  await screenshot(p, `${shot}-user-done`);
  const [download] = await Promise.all([
    p.waitForEvent('download'),
    detail.locator('li', { hasText: name }).getByRole('button', { name: '下载' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(name);
  const saved = join(work, `downloaded-${name}`);
  await download.saveAs(saved);
  expect(readFileSync(saved).equals(readFileSync(file))).toBe(true);
}

describe('检索报告 journey', () => {
  it('fills papers and databases, sees the estimate, pays, an operator delivers, the user downloads', async () => {
    const { context, page: p } = await journey.openAsNewUser('/searchReport');
    const body = () => p.locator('body').innerText();
    await expect.poll(() => p.locator('.commission-estimate').innerText()).toContain('填写数量后显示费用');

    // Two papers.
    await p.getByLabel('题名').fill('基于遥感的土壤墒情反演方法研究');
    await p.getByLabel('作者').fill('王某某, 李某某');
    await p.getByLabel('期刊 / 会议').fill('农业工程学报');
    await p.getByLabel('年份').fill('2023');
    await p.getByRole('button', { name: '添加一篇论文' }).click();
    await p.getByLabel('题名').nth(1).fill('Deep learning for farmland soil moisture prediction');
    await p.getByLabel('作者').nth(1).fill('Wang X, Li Y');
    // No database yet: the contract's message, nothing sent.
    await p.getByLabel('检索用途').click();
    await p.locator('.ant-select-item-option', { hasText: '职称评审' }).click();
    await p.getByLabel('期望完成日期').fill(inDays(20));
    await p.getByLabel('联系人', { exact: true }).fill('王老师');
    await p.getByLabel('联系电话').fill('13912345678');
    await p.getByLabel('电子邮箱').fill('wang.laoshi@example.edu.cn');
    await p.getByRole('button', { name: '提交委托' }).click();
    await expect.poll(body).toContain('请至少选择一个检索数据库');

    // Two databases: 2 papers × 2 databases × ¥15 = ¥60.00, and the turnaround before submitting.
    await p.getByLabel('SCI-E（科学引文索引扩展版）').check();
    await p.getByLabel('EI（工程索引）').check();
    const estimate = p.locator('.commission-estimate');
    await expect.poll(() => estimate.innerText()).toContain('¥60.00');
    expect(await estimate.innerText()).toContain('2 篇 × 2 个数据库');
    expect(await estimate.innerText()).toContain(
      `支付后 7 日内完成（自然日），今日支付预计 ${inDays(7)} 完成`,
    );
    await screenshot(p, 'services-1-search-report-form');
    await p.getByRole('button', { name: '提交委托' }).click();

    await expect.poll(body).toContain('委托已提交');
    await p.getByRole('button', { name: '去支付' }).click();
    expect(await payInSandbox(context, p)).toContain('60.00');
    const submitted = p.locator('.commission-submitted');
    await expect.poll(() => submitted.innerText(), { timeout: 30_000 }).toContain('处理中');
    // The promise the server recorded at payment, on the timeline.
    await expect.poll(() => submitted.innerText()).toContain(`预计完成日期 ${inDays(7)}`);
    const commissionNo = /WT\d{20}/.exec(await submitted.innerText())![0];
    await screenshot(p, 'services-2-search-report-paid');

    const report = await printPdf(
      context,
      '<h1>收录引用检索报告</h1><p>经检索，委托人提供的 2 篇论文被 SCI-E、EI 收录情况如下……</p><p>（盖章）</p>',
      join(work, '检索报告-盖章.pdf'),
    );
    await deliverInConsole(
      commissionNo,
      inDays(7),
      report,
      totpCode(staff.totpSecret, new Date()),
      'services-3',
    );

    // The e-mail: Chinese, the order number, where to download.
    await expect.poll(() => mailsTo('wang.laoshi@example.edu.cn').length, { timeout: 30_000 }).toBe(1);
    const [mail] = mailsTo('wang.laoshi@example.edu.cn');
    const orderNo = /订单号 (KY\d{20})/.exec(mail!.subject)?.[1];
    expect(mail!.subject).toBe(`【科研服务网】您委托的收录引用检索报告已完成（订单号 ${orderNo}）`);
    expect(mail!.text).toContain(`订单号：${orderNo}`);
    expect(mail!.text).toContain('检索报告已出具');
    expect(mail!.text).toContain(`委托编号：${commissionNo}`);
    expect(mail!.text).toContain('/user/order/commission');

    // The operator sees the e-mail went out (a recovery code: the TOTP code was used already).
    const { staffContext, op } = await openConsole(staff.recoveryCodes[1]!);
    await op.getByText('已完成', { exact: true }).click();
    await op.locator('tr', { hasText: commissionNo }).getByRole('button', { name: '办理' }).click();
    await expect
      .poll(() => op.locator('.ant-drawer').innerText())
      .toMatch(/办理完成邮件 · wang\.laoshi@example\.edu\.cn · 已发送/);
    await screenshot(op, 'services-3-console-mailed');
    await staffContext.close();

    await downloadFromOrders(p, commissionNo, report, 'services-4');
  });
});

describe('文献下载 journey', () => {
  it('requests papers by DOI and citation, pays, an operator delivers the full text, the user downloads it', async () => {
    const { context, page: p } = await journey.openAsNewUser('/technologySearch/downloadService');
    const body = () => p.locator('body').innerText();
    await p
      .getByLabel('文献信息')
      .fill('10.1016/j.agwat.2020.106123\n张三. 农田墒情监测研究综述[J]. 农业工程学报, 2022, 38(1): 1-10.');
    const estimate = p.locator('.commission-estimate');
    await expect.poll(() => estimate.innerText()).toContain('¥10.00');
    expect(await estimate.innerText()).toContain(
      `支付后 5 日内完成（自然日），今日支付预计 ${inDays(5)} 完成`,
    );
    await p.getByLabel('联系人', { exact: true }).fill('李同学');
    await p.getByLabel('联系电话').fill('13812345678');
    await p.getByRole('button', { name: '提交委托' }).click();
    await expect.poll(body).toContain('请确认所申请文献仅用于个人学习研究');
    await p.getByLabel('我确认所申请的文献仅用于个人学习与研究，不作他用。').check();
    await screenshot(p, 'services-5-doc-delivery-form');
    await p.getByRole('button', { name: '提交委托' }).click();

    await expect.poll(body).toContain('委托已提交');
    await p.getByRole('button', { name: '去支付' }).click();
    expect(await payInSandbox(context, p)).toContain('10.00');
    const submitted = p.locator('.commission-submitted');
    await expect.poll(() => submitted.innerText(), { timeout: 30_000 }).toContain('处理中');
    await expect.poll(() => submitted.innerText()).toContain(`预计完成日期 ${inDays(5)}`);
    const commissionNo = /WT\d{20}/.exec(await submitted.innerText())![0];

    const fullText = await printPdf(
      context,
      '<h1>农田墒情监测研究综述</h1><p>摘要：本文综述了农田土壤墒情监测的方法……</p>',
      join(work, '文献全文-农田墒情监测研究综述.pdf'),
    );
    // The TOTP code of the first journey may not be used twice: a recovery code logs in once.
    await deliverInConsole(commissionNo, inDays(5), fullText, staff.recoveryCodes[0]!, 'services-6');
    await downloadFromOrders(p, commissionNo, fullText, 'services-7');
  });
});
