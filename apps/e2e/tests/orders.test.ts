// The orders and payment journeys (issue 5): pay an order with the sandbox 模拟支付 page in the
// browser and watch the dialog notice it; pay through the dev control POST /__dev/pay; cancel and
// delete with confirmation; request an invoice and download its PDF; add addresses, set the
// default and send an order's printed report there (tracking number once shipped).
//
// Orders are created the way a student creates them: a paper uploaded to the check service
// (POST /freeCheck/uploadFile); a freshly registered account has no free check, so it is a paid order.
// The 查重订单 tab is the check feature's list (free checks have no order); it opens this feature's
// PaymentDialog (去支付) and order detail drawer (the order number), which these journeys drive.
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSmallLibrary, useJourney } from '../lib/journey.ts';
import { API_PREFIX, api, MANY_USERS_ENV, registerUser, type TestUser } from '../lib/users.ts';

const OPERATOR_TOKEN = 'e2e-operator-token-0123456789';

const journey = useJourney('orders');
/** The test's page and its browser context (openAs). */
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await journey.start({
    ...MANY_USERS_ENV,
    OPERATOR_TOKEN,
    OPERATOR_TOKEN_SCOPES: 'orders:ship,invoices:issue',
  });
  importSmallLibrary(journey.server.dataDir, journey.work);
});

interface CreatedOrder {
  orderId: string;
  orderNo: string;
  amount: string;
}

/** A paragraph of plain Chinese text; `n` copies make a paper of about n × 120 characters. */
function paperText(n: number): string {
  const paragraph =
    '本文以高校图书馆的文献服务为研究对象，分析了读者在检索、借阅与获取全文过程中的主要需求，' +
    '并结合问卷调查与访谈的结果，提出了改进馆藏建设、优化检索界面与加强学科服务的具体建议。' +
    '研究表明，服务流程的简化与信息的及时推送能够显著提高读者的满意度。';
  return Array.from({ length: n }, (_, i) => `第${i + 1}段。${paragraph}`).join('\n');
}

/** Uploads a paper to the check service: a pending check order of the user. */
async function createCheckOrder(user: TestUser, title = '高校图书馆文献服务研究'): Promise<CreatedOrder> {
  const form = new FormData();
  form.append('title', title);
  form.append('author', '张三');
  form.append('goodsId', 'check_journal');
  form.append('file', new Blob([paperText(20)], { type: 'text/plain' }), 'paper.txt');
  const res = await fetch(`${journey.server.baseUrl}${API_PREFIX}/freeCheck/uploadFile`, {
    method: 'POST',
    headers: { token: user.token, terminal: 'PC' },
    body: form,
  });
  const envelope = (await res.json()) as {
    code: number;
    message: string;
    data: { orderId: string; orderNo: string; amount: string; free: boolean };
  };
  if (envelope.code !== 0) throw new Error(`uploadFile: ${envelope.code} ${envelope.message}`);
  expect(envelope.data.free).toBe(false);
  return envelope.data;
}

/** Pays an order without a browser: an Alipay code, then the sandbox pays it like a phone. */
async function payByApi(user: TestUser, order: CreatedOrder): Promise<void> {
  const qr = await api<{ outTradeNo: string }>(
    journey.server.baseUrl,
    '/order/pay',
    { orderId: order.orderId, payType: 'ali' },
    user.token,
  );
  await api(journey.server.baseUrl, '/__dev/pay', { orderNo: qr.outTradeNo });
  await expect
    .poll(
      async () =>
        (
          await api<{ payStatus: number }>(
            journey.server.baseUrl,
            '/order/payStatus',
            { orderId: order.orderId },
            user.token,
          )
        ).payStatus,
    )
    .toBe(1);
}

async function openAs(user: TestUser, path: string): Promise<Page> {
  ({ context, page } = await journey.openAs(user, path));
  return page;
}

function orderRow(p: Page, orderNo: string) {
  return p.locator('tr', { hasText: orderNo });
}

const toasts = (p: Page) => p.locator('.ant-message').innerText();

describe('orders and payment journeys', () => {
  it('pays an order with the sandbox 模拟支付 page and watches the dialog notice it', async () => {
    const user = await registerUser(journey.server.baseUrl);
    const order = await createCheckOrder(user);
    await openAs(user, '/user/order/check');

    const row = orderRow(page, order.orderNo);
    await expect.poll(() => row.innerText()).toContain('待支付');
    expect(await row.innerText()).toContain(`¥${order.amount}`);
    await expect.poll(() => page.locator('.ant-pagination').innerText()).toContain('共 1 条');

    await row.getByRole('button', { name: '去支付' }).click();
    const dialog = page.locator('.pay-dialog');
    await expect.poll(() => dialog.getByAltText('微信支付二维码').count()).toBe(1);
    expect(await dialog.getByTestId('pay-amount').innerText()).toBe(`¥${order.amount}`);
    expect(await dialog.getByTestId('pay-countdown').innerText()).toMatch(/^0[12]:\d\d:\d\d$/);
    expect(await dialog.innerText()).toContain(order.orderNo);

    // The sandbox link opens the page the QR code encodes.
    const link = dialog.getByRole('link', { name: /在新窗口打开模拟支付页/ });
    const href = (await link.getAttribute('href')) ?? '';
    expect(new URL(href).pathname).toBe(`/__sandbox/pay/wx/${order.orderNo}`);
    expect(await dialog.getByAltText('微信支付二维码').getAttribute('data-code')).toBe(href);
    const [phone] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await phone.waitForLoadState();
    expect(await phone.locator('body').innerText()).toContain(`¥${order.amount}`);
    await phone.getByRole('button', { name: '模拟支付' }).click();
    await expect.poll(() => phone.locator('[role=status]').innerText()).toBe('支付成功');

    // Within a few polls the dialog sees it, says so and closes; the list follows.
    await expect.poll(() => toasts(page)).toContain('支付成功');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => row.innerText()).not.toContain('待支付');
    expect(await row.getByRole('button', { name: '去支付' }).count()).toBe(0);

    // The detail drawer (the order number) shows the history and the payment.
    await row.getByRole('button', { name: order.orderNo }).click();
    const drawer = page.locator('.order-drawer');
    await expect.poll(() => drawer.innerText()).toContain('状态记录');
    const text = await drawer.innerText();
    expect(text).toContain('微信支付');
    expect(text).toContain('待支付');
    expect(text).toContain('已支付');
  });

  it('pays with 支付宝 through the dev control and shows it in 支付记录', async () => {
    const user = await registerUser(journey.server.baseUrl);
    const order = await createCheckOrder(user);
    await openAs(user, '/user/order/check');
    const row = orderRow(page, order.orderNo);
    await row.getByRole('button', { name: '去支付' }).click();
    const dialog = page.locator('.pay-dialog');
    await expect.poll(() => dialog.getByAltText('微信支付二维码').count()).toBe(1);
    await dialog.getByText('支付宝', { exact: true }).click();
    await expect.poll(() => dialog.getByAltText('支付宝支付二维码').count()).toBe(1);
    expect(await dialog.innerText()).toContain('请使用支付宝扫一扫完成支付');
    const href = (await dialog.getByRole('link', { name: /模拟支付页/ }).getAttribute('href')) ?? '';
    const [, , , channel, outTradeNo] = new URL(href).pathname.split('/');
    expect(channel).toBe('ali');

    await api(journey.server.baseUrl, '/__dev/pay', { orderNo: outTradeNo });
    await expect.poll(() => toasts(page)).toContain('支付成功');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => row.innerText()).not.toContain('待支付');

    await page.goto('/user/paymentRecords');
    const record = page.locator('tr', { hasText: order.orderNo });
    await expect.poll(() => record.innerText()).toContain('支付宝');
    expect(await record.innerText()).toContain(`¥${order.amount}`);
    expect(await page.locator('.ant-pagination').innerText()).toContain('共 1 条');
  });

  it('cancels a pending order in its details and deletes it, each after confirmation', async () => {
    const user = await registerUser(journey.server.baseUrl);
    const order = await createCheckOrder(user);
    await openAs(user, '/user/order/check');
    const row = orderRow(page, order.orderNo);
    await row.getByRole('button', { name: order.orderNo }).click();
    const drawer = page.locator('.order-drawer');
    await drawer.getByRole('button', { name: '取消订单' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: '确定' }).click();
    await expect.poll(() => toasts(page)).toContain('订单已取消');
    await expect.poll(() => drawer.locator('.ant-descriptions').innerText()).toContain('已取消');
    expect(await drawer.getByRole('button', { name: '去支付' }).count()).toBe(0);
    await drawer.locator('.ant-drawer-close').click();
    await expect.poll(() => row.innerText()).toContain('已取消');
    expect(await row.getByRole('button', { name: '去支付' }).count()).toBe(0);
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: '确定' }).click();
    await expect.poll(() => row.count()).toBe(0);
  });

  it('requests a company invoice for a paid order and downloads the PDF', async () => {
    const user = await registerUser(journey.server.baseUrl);
    const order = await createCheckOrder(user);
    await payByApi(user, order);
    await openAs(user, '/user/invoice');

    const row = page.locator('tr', { hasText: order.orderNo });
    await expect.poll(() => row.count()).toBe(1);
    await row.locator('input[type=checkbox]').check();
    await expect.poll(() => page.locator('.invoice-section__sum').innerText()).toContain(`¥${order.amount}`);
    await page.getByRole('button', { name: '申请开票' }).click();

    const form = page.locator('.invoice-form-modal');
    await form.getByText('企业 / 单位').click();
    await form.getByLabel('发票抬头').fill('北京某某科技有限公司');
    await form.getByLabel('纳税人识别号').fill('91110000802100433C');
    await form.getByLabel('接收邮箱').fill('finance@example.com');
    await form.getByRole('button', { name: '提交申请' }).click();
    await expect.poll(() => form.innerText()).toContain('请输入正确的纳税人识别号（18位统一社会信用代码）');
    await form.getByLabel('纳税人识别号').fill('91110000802100433b');
    await form.getByRole('button', { name: '提交申请' }).click();

    // A 企业 title waits for finance to check 抬头 and 税号 (开票方式 default, decision 0031).
    const invoice = page
      .locator('.invoice-section')
      .nth(1)
      .locator('tr', { hasText: '北京某某科技有限公司' });
    await expect.poll(() => invoice.innerText()).toContain('待财务审核开具');
    expect(await invoice.innerText()).toContain('91110000802100433B');
    expect(await invoice.getByRole('button', { name: /下载/ }).count()).toBe(0);
    // Finance issues it (what 发票 › 待开票 › 生成电子发票 calls); the page then offers the PDF.
    await issueLatestInvoice(user);
    await page.reload();
    await expect.poll(() => invoice.innerText()).toContain('已开具');
    // the order is no longer offered for an invoice
    await expect
      .poll(() => page.locator('.invoice-section').first().locator('tr', { hasText: order.orderNo }).count())
      .toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      invoice.getByRole('button', { name: /下载/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^电子发票-.+\.pdf$/);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // the in-process worker e-mails it (the sandbox outbox): the list says so after a reload
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .locator('.invoice-section')
            .nth(1)
            .locator('tr', { hasText: '北京某某科技有限公司' })
            .innerText();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toContain('已发送至邮箱');
  });

  it('adds addresses, sets the default and sends a paid order’s report there', async () => {
    const user = await registerUser(journey.server.baseUrl);
    const order = await createCheckOrder(user);
    await payByApi(user, order);
    await openAs(user, '/user/address');
    await expect.poll(() => page.locator('.address-book').innerText()).toContain('还没有收货地址');

    async function addAddress(name: string, phone: string, region: [string, string, string], detail: string) {
      await page.getByRole('button', { name: '新增收货地址' }).click();
      const modal = page.locator('.address-form-modal');
      await modal.getByLabel('收货人').fill(name);
      await modal.getByLabel('手机号码').fill(phone);
      await modal.locator('.address-form__region').click();
      for (const [level, label] of region.entries()) {
        const item = page.locator('.ant-cascader-menu').nth(level).locator(`li[title="${label}"]`);
        if (level === region.length - 1) {
          await item.click();
        } else {
          // The dropdown is still opening (and the list loading) right after the first click.
          await expect
            .poll(async () => {
              await item.click();
              return item.getAttribute('class');
            })
            .toContain('ant-cascader-menu-item-active');
        }
      }
      await expect.poll(() => modal.locator('.address-form__region').innerText()).toContain(region[2]);
      await modal.getByLabel('详细地址').fill(detail);
      await modal.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => modal.isVisible()).toBe(false);
    }

    await addAddress('李四', '13800138000', ['北京市', '北京市', '海淀区'], '中关村大街27号');
    await addAddress('王五', '13900139000', ['浙江省', '杭州市', '西湖区'], '文三路90号');
    const cards = page.getByTestId('address-card');
    await expect.poll(() => cards.count()).toBe(2);
    // the first address became the default and is listed first
    expect(await cards.first().innerText()).toContain('李四');
    expect(await cards.first().innerText()).toContain('默认地址');
    expect(await cards.first().innerText()).toContain('北京市海淀区 中关村大街27号');

    await cards.filter({ hasText: '王五' }).getByRole('button', { name: '设为默认' }).click();
    await expect.poll(() => cards.first().innerText()).toContain('王五');
    expect(await cards.first().innerText()).toContain('默认地址');
    expect(await cards.first().innerText()).toContain('浙江省杭州市西湖区 文三路90号');
    expect(await cards.nth(1).innerText()).not.toContain('默认地址');

    // Courier delivery: choose the (default) address in the order's detail.
    await page.goto('/user/order/check');
    const row = orderRow(page, order.orderNo);
    await row.getByRole('button', { name: order.orderNo }).click();
    const drawer = page.locator('.order-drawer');
    await drawer.getByRole('button', { name: '选择收货地址' }).click();
    const chooser = page.locator('.ant-modal', { hasText: '选择收货地址' });
    await expect.poll(() => chooser.locator('.ant-radio-wrapper-checked').innerText()).toContain('王五');
    await chooser.getByRole('button', { name: '确认' }).click();
    const delivery = drawer.getByTestId('order-delivery');
    await expect.poll(() => delivery.innerText()).toContain('王五');
    expect(await delivery.innerText()).toContain('待发货');

    // The operator ships it; the student sees the tracking number.
    await fetch(`${journey.server.baseUrl}${API_PREFIX}/operator/orders/ship`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-operator-token': OPERATOR_TOKEN },
      body: JSON.stringify({ orderNo: order.orderNo, carrier: '顺丰速运', trackingNo: 'SF1234567890' }),
    }).then(async (res) => expect(((await res.json()) as { code: number }).code).toBe(0));
    await drawer.locator('.ant-drawer-close').click();
    await row.getByRole('button', { name: order.orderNo }).click();
    await expect.poll(() => drawer.getByTestId('order-delivery').innerText()).toContain('SF1234567890');
    const shipped = await drawer.getByTestId('order-delivery').innerText();
    expect(shipped).toContain('已发货');
    expect(shipped).toContain('顺丰速运');
    expect(await drawer.getByRole('button', { name: /收货地址/ }).count()).toBe(0);
  });
});

/** Issues the user's newest invoice as finance's 生成电子发票 does (the operator API's /invoices/issue). */
async function issueLatestInvoice(user: TestUser) {
  const list = await api<{ list: { invoiceId: string }[] }>(
    journey.server.baseUrl,
    '/invoice/list',
    { page: 1, pageSize: 1 },
    user.token,
  );
  const res = await fetch(`${journey.server.baseUrl}${API_PREFIX}/operator/invoices/issue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-operator-token': OPERATOR_TOKEN },
    body: JSON.stringify({ invoiceId: list.list[0]!.invoiceId }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(0);
}
