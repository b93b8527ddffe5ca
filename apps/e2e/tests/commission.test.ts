// 科技查新 as a commissioned service (issue 16), in a real browser: a researcher fills the 查新 form
// on /technologySearch (GB/T 32003 fields, an attachment, the price shown before submitting),
// pays in the payment sandbox, an operator with the fulfilment role logs in to /admin (TOTP),
// uploads the stamped report (a PDF) and marks the commission done, the researcher gets the SMS
// (sandbox outbox) and downloads the very same PDF from 我的订单 › 检索查新订单. Screenshots:
// apps/e2e/test-results/commission-*.png.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/src/modules/console/totp.ts';
import { newContext, screenshot } from '../lib/browser.ts';
import { deliverReport } from '../lib/commission.ts';
import { payInSandbox, useJourney } from '../lib/journey.ts';
import { repoRoot } from '../lib/server.ts';
import { API_PREFIX, MANY_USERS_ENV } from '../lib/users.ts';

const journey = useJourney('commission');
const { work } = journey;
const dataDir = join(work, 'data');
let staff: { username: string; password: string; totpSecret: string };
let usedCode = '';

beforeAll(async () => {
  // The operator is created the documented way, before the server holds the data folder.
  staff = JSON.parse(
    execFileSync(
      process.execPath,
      [
        join(repoRoot, 'apps/server/src/cli/operator.ts'),
        'create',
        '--username',
        'wangcx',
        '--role',
        'fulfilment',
      ],
      { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' } },
    ).toString(),
  );
  await journey.start({ ...MANY_USERS_ENV, DATA_DIR: dataDir });
});

function inDays(days: number): string {
  return new Date(Date.now() + 8 * 3600_000 + days * 24 * 3600_000).toISOString().slice(0, 10);
}

describe('科技查新 journey', () => {
  it('commissions a 查新, pays, an operator delivers the report, and the user downloads it', async () => {
    const { context, page: p, user } = await journey.openAsNewUser('/technologySearch');
    const body = () => p.locator('body').innerText();
    expect(await body()).not.toContain('正在接入中');

    // The form, with a bad field first: the contract's message, nothing sent.
    await p.getByLabel('项目中文名称').fill('基于深度学习的农田土壤墒情预测方法');
    await p.getByLabel('项目英文名称').fill('Soil moisture prediction for farmland based on deep learning');
    await p.getByLabel('查新目的').click();
    await p.locator('.ant-select-item-option', { hasText: '立项' }).click();
    await p.getByLabel('国内外').check();
    await p
      .getByLabel('查新点')
      .fill('融合气象站、遥感影像与土壤传感器数据的墒情预测模型\n面向县域尺度的墒情预报服务');
    await p.getByLabel('技术要点').fill('太短');
    await p.getByRole('button', { name: '提交委托' }).click();
    await expect.poll(body).toContain('技术要点不少于50个字');
    await p
      .getByLabel('技术要点')
      .fill(
        '本项目针对农田土壤墒情监测成本高、时效差的问题，提出一种融合气象站观测、遥感影像与土壤传感器数据的深度学习预测方法，在三个省份的试验田进行了验证，预测误差低于百分之八。',
      );
    for (const [label, words] of [
      ['中文检索词', ['土壤墒情', '深度学习', '遥感']],
      ['英文检索词', ['soil moisture', 'deep learning', 'remote sensing']],
    ] as const) {
      const input = p.getByLabel(label);
      for (const w of words) {
        await input.fill(w);
        await input.press('Enter');
      }
    }
    await p.getByLabel('期望完成日期').fill(inDays(20));
    await p.getByLabel('联系人', { exact: true }).fill('王老师');
    await p.getByLabel('联系电话').fill('13912345678');
    const known = join(work, '已知文献.txt');
    writeFileSync(known, '[1] 张三. 农田墒情监测研究综述[J]. 农业工程学报, 2022, 38(1): 1-10.\n');
    await p.locator('.commission-form input[type=file]').setInputFiles(known);
    await expect.poll(() => p.locator('.ant-upload-list-item-done').count()).toBe(1);
    // The price before submitting: 国内外, 常规 = ¥1,500.00; the unit calculator beside the form.
    await expect.poll(() => p.locator('.commission-estimate').innerText()).toContain('¥1,500.00');
    await expect.poll(() => p.locator('.unit-calculator').innerText()).toContain('666.67');
    await screenshot(p, 'commission-1-form');
    await p.getByRole('button', { name: '提交委托' }).click();

    await expect.poll(body).toContain('委托已提交');
    await p.getByRole('button', { name: '去支付' }).click();
    expect(await payInSandbox(context, p)).toContain('1,500.00');
    await expect
      .poll(() => p.locator('.commission-submitted').innerText(), { timeout: 30_000 })
      .toContain('处理中');
    const commissionNo = /WT\d{20}/.exec(await p.locator('.commission-submitted').innerText())?.[0];
    expect(commissionNo).toBeTruthy();
    await screenshot(p, 'commission-2-paid');

    // The operator (fulfilment) delivers: logs in with TOTP, opens the commission, uploads the PDF.
    const staffContext = await newContext(journey.browser, journey.server.baseUrl);
    const op = await staffContext.newPage();
    await op.goto('/admin/commission');
    await expect.poll(() => op.url()).toContain('/admin/login');
    await op.getByLabel('用户名').fill(staff.username);
    await op.getByLabel('密码').fill(staff.password);
    usedCode = totpCode(staff.totpSecret, new Date());
    await op.getByLabel('动态验证码').fill(usedCode);
    await op.getByRole('button', { name: '登录' }).click();
    await op.getByRole('menuitem', { name: '委托办理' }).click();
    const row = op.locator('tr', { hasText: commissionNo! });
    await expect.poll(() => row.count()).toBe(1);
    await screenshot(op, 'commission-3-console-queue');
    await row.getByRole('button', { name: '办理' }).click();
    const drawer = op.locator('.ant-drawer');
    await expect.poll(() => drawer.innerText()).toContain('融合气象站');
    // The stamped report: a real PDF with a text layer, printed by the browser.
    const maker = await staffContext.newPage();
    await maker.setContent(
      '<h1>科技查新报告</h1><p>查新结论：所查项目的查新点在国内外公开文献中未见相同报道。</p><p>（盖章）</p>',
    );
    const reportFile = join(work, '查新报告-盖章.pdf');
    writeFileSync(reportFile, await maker.pdf());
    await maker.close();
    await deliverReport(op, reportFile);
    await screenshot(op, 'commission-4-console-done');
    await staffContext.close();

    // The SMS notice (sandbox outbox) names the order.
    await expect
      .poll(async () => {
        const res = await fetch(`${journey.server.baseUrl}/__dev/sms/last?phone=${user.phone}`);
        return ((await res.json()) as { data: { type: string } | null }).data?.type;
      })
      .toBe('commission_done');

    // The user downloads the report from 我的订单 › 检索查新订单.
    await p.goto('/user/order/commission');
    const mine = p.locator('.commission-list tr', { hasText: commissionNo! });
    await expect.poll(() => mine.innerText()).toContain('已完成');
    await mine.getByRole('button', { name: '详情' }).click();
    const detail = p.locator('.ant-drawer');
    await expect.poll(() => detail.innerText()).toContain('查新报告-盖章.pdf');
    await screenshot(p, 'commission-5-user-done');
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      detail.locator('li', { hasText: '查新报告-盖章.pdf' }).getByRole('button', { name: '下载' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('查新报告-盖章.pdf');
    const saved = join(work, 'downloaded.pdf');
    await download.saveAs(saved);
    expect(readFileSync(saved).equals(readFileSync(reportFile))).toBe(true);

    // The order's own detail (委托订单) shows the same progress and report.
    await p.keyboard.press('Escape');
    await expect.poll(() => p.locator('.ant-drawer-open').count()).toBe(0);
    await p
      .locator('.order-table tr, table tr', { hasText: '科技查新（国内外，常规）' })
      .getByText('详情')
      .click();
    const orderDrawer = p.locator('.order-drawer');
    await expect.poll(() => orderDrawer.innerText()).toContain('查新报告-盖章.pdf');
    await screenshot(p, 'commission-6-order-detail');
  });

  it('quotes a 科技成果评价 in the console, and the client sees the price and pays it', async () => {
    const { context, page: p, user } = await journey.openAsNewUser('/technologySearch/techEvaluation');
    const post = async (path: string, body: RequestInit['body'], json = true) =>
      (await (
        await fetch(`${journey.server.baseUrl}${API_PREFIX}${path}`, {
          method: 'POST',
          headers: {
            token: user.token,
            terminal: 'PC',
            ...(json ? { 'content-type': 'application/json' } : {}),
          },
          body,
        })
      ).json()) as { code: number; data: { fileId: string; commissionNo: string } };
    const material = new FormData();
    material.append(
      'file',
      new Blob(['成果技术报告：滴灌控制装置的设计与示范。'], { type: 'text/plain' }),
      '技术报告.txt',
    );
    const file = await post('/commission/uploadFile', material, false);
    expect(file.code).toBe(0);
    const submitted = await post(
      '/commission/submit',
      JSON.stringify({
        service: 'tech_evaluation',
        name: '新型节水灌溉装置',
        type: '应用技术成果',
        units: '某农业大学',
        form: '会议评价',
        summary:
          '本成果研制了一种基于土壤墒情反馈的滴灌控制装置，在华北平原示范推广两千亩，节水约百分之三十，运行稳定，成本较低。',
        urgency: 'standard',
        deadline: inDays(30),
        delivery: 'pdf',
        fileIds: [file.data.fileId],
        contactName: '李老师',
        contactPhone: '13812345678',
      }),
    );
    expect(submitted.code).toBe(0);

    const staffContext = await newContext(journey.browser, journey.server.baseUrl);
    const op = await staffContext.newPage();
    await op.goto('/admin/login');
    await op.getByLabel('用户名').fill(staff.username);
    await op.getByLabel('密码').fill(staff.password);
    // A fresh 30 s step: the first test's code may not be used twice.
    await expect.poll(() => totpCode(staff.totpSecret, new Date()), { timeout: 35_000 }).not.toBe(usedCode);
    await op.getByLabel('动态验证码').fill(totpCode(staff.totpSecret, new Date()));
    await op.getByRole('button', { name: '登录' }).click();
    await op.getByRole('menuitem', { name: '委托办理' }).click();
    await op.getByText('待报价', { exact: true }).click();
    const row = op.locator('tr', { hasText: submitted.data.commissionNo });
    await row.getByRole('button', { name: '办理' }).click();
    const drawer = op.locator('.ant-drawer');
    await drawer.getByLabel('报价金额（元）').fill('3000');
    await drawer.getByLabel('报价说明').fill('会议评价，专家 5 人');
    await drawer.getByRole('button', { name: '提交报价' }).click();
    await expect.poll(() => drawer.innerText()).toContain('¥3,000.00');
    await screenshot(op, 'commission-7-console-quoted');
    await staffContext.close();

    await p.goto('/user/order/commission');
    const mine = p.locator('.commission-list tr', { hasText: submitted.data.commissionNo });
    await expect.poll(() => mine.innerText()).toContain('¥3,000.00');
    await mine.getByRole('button', { name: '详情' }).click();
    await p
      .locator('.ant-drawer')
      .getByRole('button', { name: /去支付/ })
      .click();
    expect(await payInSandbox(context, p)).toContain('3,000.00');
    await expect.poll(() => mine.innerText(), { timeout: 30_000 }).toContain('处理中');
  });
});
