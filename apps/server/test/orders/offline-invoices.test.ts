import { ErrorCode, isValidCreditCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { saveIssueMode } from '../../src/modules/orders/invoices/invoices.repo.ts';
import { ordersJobDefinitions } from '../../src/modules/orders/orders.jobs.ts';
import type { SandboxMailProvider } from '../../src/providers/mail/index.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  HOUR,
  newOrder,
  newUser,
  type OrdersTestApp,
  operator,
  orderRow,
  paymentsOf,
  runJob,
  startPay,
  uploadOfflineProof,
} from './orders-helper.ts';

let t: OrdersTestApp;
let alice: { token: string; userId: string };
let bob: { token: string; userId: string };

beforeAll(async () => {
  t = await buildOrdersApp({ env: { OFFLINE_PROOF_MAX_BYTES: '20000' } });
  // These tests are about the invoices themselves: issued the moment they are asked for (the
  // console's 开票方式; the default review of 企业 titles is invoice-issue-mode.test.ts's).
  await saveIssueMode(t.db, 'immediate', 'test', t.clock.now());
  alice = await newUser(t);
  bob = await newUser(t);
});

afterAll(async () => {
  await t.close();
});

/** One worker round over the orders module's jobs (the invoice mail among them). */
async function runOrdersJobs(): Promise<void> {
  const worker = createWorker({ db: t.db, definitions: ordersJobDefinitions, services: t.root.services });
  while ((await worker.tick()).length > 0);
  await worker.stop();
}

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]);

function uploadProof(token: string, orderId: string, file: Buffer, fileName = 'proof.png') {
  return uploadOfflineProof(t, token, orderId, file, fileName);
}

async function paidOrder(user: { token: string; userId: string }, quantity = 10_000) {
  const order = await newOrder(t, user.userId, quantity);
  await startPay(t, user.token, order.orderId, 'wx');
  await devPay(t, order.orderNo);
  await t.sandbox.notificationSettled('wx', order.orderNo);
  return order;
}

describe('offline payment', () => {
  it('shows the transfer details (sandbox demo account)', async () => {
    const info = await call<{ enabled: boolean; accountNo: string; note: string }>(
      t,
      '/payment/offline/info',
      {},
      { token: alice.token },
    );
    expect(info.data.enabled).toBe(true);
    expect(info.data.note).toContain('沙箱');
  });

  it('proof upload is sniffed by content and size-capped; an operator confirms -> paid by operator', async () => {
    const order = await newOrder(t, alice.userId, 2_000);
    const fake = await uploadProof(
      alice.token,
      order.orderId,
      Buffer.from('MZ this is an exe renamed to png'),
    );
    expect(fake.code).toBe(ErrorCode.OFFLINE_PROOF_INVALID);
    const huge = await uploadProof(alice.token, order.orderId, Buffer.concat([PNG, Buffer.alloc(30_000)]));
    expect(huge.code).toBe(ErrorCode.OFFLINE_PROOF_TOO_LARGE);
    // Another user's order is not found.
    expect((await uploadProof(bob.token, order.orderId, PNG)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    // A QR code opened before the transfer is closed, so it cannot take a second payment.
    await startPay(t, alice.token, order.orderId, 'wx');
    const ok = await uploadProof(alice.token, order.orderId, PNG);
    expect(ok.code).toBe(0);
    expect(ok.data.status).toBe('pending');
    expect((await t.sandbox.findOrder('wx', order.orderNo))?.state).toBe('CLOSED');
    expect((await uploadProof(alice.token, order.orderId, PNG)).code).toBe(ErrorCode.OFFLINE_PROOF_PENDING);
    // While a proof waits, the order neither expires nor takes a QR payment.
    expect((await startPay(t, alice.token, order.orderId, 'wx')).code).toBe(ErrorCode.OFFLINE_PROOF_PENDING);
    t.clock.advance(3 * HOUR);
    await runJob(t, 'orders.expire');
    expect((await orderRow(t, order.orderId)).status).toBe('pending_payment');

    const proofs = await operator<{ proofId: string; orderNo: string }[]>(t, '/offline/proofs', {});
    expect(proofs.data.some((p) => p.proofId === ok.data.proofId && p.orderNo === order.orderNo)).toBe(true);
    const file = await t.app.inject({
      method: 'GET',
      url: `/kyfw/web/v1/operator/offline/proofs/${ok.data.proofId}/file`,
      headers: { 'x-operator-token': 'test-operator-token-0123456789abcdef' },
    });
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);

    const confirmed = await operator<{ outcome: string }>(t, '/offline/confirm', {
      proofId: ok.data.proofId,
      note: '已到账',
    });
    expect(confirmed.data.outcome).toBe('paid');
    expect(await orderRow(t, order.orderId)).toMatchObject({ status: 'paid', pay_channel: 'offline' });
    expect(await paymentsOf(t, order.orderId)).toMatchObject([
      { channel: 'offline', source: 'operator', status: 'accepted' },
    ]);
    const paidBy = await t.db
      .selectFrom('order_transitions')
      .select('actor')
      .where('order_id', '=', order.orderId)
      .where('to_status', '=', 'paid')
      .executeTakeFirstOrThrow();
    expect(paidBy.actor).toBe('operator');
    expect((await operator(t, '/offline/confirm', { proofId: ok.data.proofId })).code).toBe(
      ErrorCode.CONFLICT,
    );
  });
});

describe('invoices', () => {
  it('validates the taxpayer ID check digit (GB 32100-2015)', async () => {
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91110000802100433B')).toBe(true);
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
    expect(isValidCreditCode('91350100M000100YI3')).toBe(false);

    const order = await paidOrder(alice);
    const bad = await call(
      t,
      '/invoice/create',
      {
        orderIds: [order.orderId],
        titleType: 'company',
        title: '某某科技有限公司',
        taxpayerId: '91350100M000100Y44',
        email: 'a@example.com',
      },
      { token: alice.token },
    );
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.message).toBe('请输入正确的纳税人识别号（18位统一社会信用代码）');
    const missing = await call(
      t,
      '/invoice/create',
      { orderIds: [order.orderId], titleType: 'company', title: '某某科技有限公司', email: 'a@example.com' },
      { token: alice.token },
    );
    expect(missing.message).toBe('企业抬头须填写纳税人识别号');
  });

  it("only the user's own paid orders, each once; the issued PDF shows the amount in Chinese capitals", async () => {
    const first = await paidOrder(alice, 12_345); // ¥26.00
    const second = await paidOrder(alice, 100_000); // ¥200.00
    const unpaid = await newOrder(t, alice.userId, 1_000);
    const bobs = await paidOrder(bob);

    const body = (orderIds: string[]) => ({
      orderIds,
      titleType: 'company',
      title: '北京某某科技有限公司',
      taxpayerId: '91350100m000100y43',
      email: 'finance@example.com',
    });
    expect((await call(t, '/invoice/create', body([bobs.orderId]), { token: alice.token })).code).toBe(
      ErrorCode.INVOICE_ORDER_INVALID,
    );
    expect((await call(t, '/invoice/create', body([unpaid.orderId]), { token: alice.token })).code).toBe(
      ErrorCode.INVOICE_ORDER_INVALID,
    );
    const available = await call<{ orderId: string }[]>(t, '/invoice/orders', {}, { token: alice.token });
    expect(available.data.map((o) => o.orderId)).toEqual(
      expect.arrayContaining([first.orderId, second.orderId]),
    );

    const created = await call<{ invoiceId: string; amount: string; status: string; taxpayerId: string }>(
      t,
      '/invoice/create',
      body([first.orderId, second.orderId]),
      { token: alice.token },
    );
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({
      amount: '226.00',
      status: 'issued',
      taxpayerId: '91350100M000100Y43',
    });
    expect((await call(t, '/invoice/create', body([first.orderId]), { token: alice.token })).code).toBe(
      ErrorCode.INVOICE_ORDER_INVOICED,
    );

    const list = await call<{ list: { invoiceId: string; orders: unknown[] }[]; total: number }>(
      t,
      '/invoice/list',
      { page: 1, pageSize: 10 },
      { token: alice.token },
    );
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]!.orders).toHaveLength(2);
    expect((await call<{ total: number }>(t, '/invoice/list', {}, { token: bob.token })).data.total).toBe(0);

    // Bob cannot download Alice's invoice.
    const denied = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/invoice/download',
      headers: { token: bob.token, 'content-type': 'application/json' },
      payload: JSON.stringify({ invoiceId: created.data.invoiceId }),
    });
    expect(denied.json().code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    const pdf = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/invoice/download',
      headers: { token: alice.token, 'content-type': 'application/json' },
      payload: JSON.stringify({ invoiceId: created.data.invoiceId }),
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain("filename*=UTF-8''");
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('贰佰贰拾陆元整');
    expect(text).toContain('¥226.00');
    expect(text).toContain('北京某某科技有限公司');
    expect(text).toContain('91350100M000100Y43');
    expect(text).toContain(first.orderNo);
    expect(text).toContain(second.orderNo);
  });

  it('an issued invoice is e-mailed with its PDF to the address on it, once', async () => {
    const order = await paidOrder(alice, 5_000);
    const created = await call<{
      invoiceId: string;
      invoiceNo: string;
      status: string;
      emailedAt: string | null;
    }>(
      t,
      '/invoice/create',
      { orderIds: [order.orderId], titleType: 'personal', title: '李雷', email: 'lilei@example.com' },
      { token: alice.token },
    );
    expect(created.data).toMatchObject({ status: 'issued', emailedAt: null });
    const outbox = t.rt.mail as SandboxMailProvider;
    const mine = () => outbox.sent.filter((m) => m.to === 'lilei@example.com');
    expect(mine()).toHaveLength(0);
    await runOrdersJobs();
    expect(mine()).toHaveLength(1);
    const mail = mine()[0]!;
    expect(mail).toMatchObject({
      subject: `【科研服务网】您的电子发票 ${created.data.invoiceNo}`,
      attachments: [`电子发票-${created.data.invoiceNo}.pdf`],
    });
    // the attachment is the invoice the user downloads
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/invoice/download',
      headers: { token: alice.token, 'content-type': 'application/json' },
      payload: JSON.stringify({ invoiceId: created.data.invoiceId }),
    });
    expect(mail.raw.toString('latin1').replace(/\r\n/g, '')).toContain(
      pdf.rawPayload.subarray(0, 300).toString('base64').slice(0, 200),
    );
    const listed = await call<{ list: { invoiceId: string; emailedAt: string | null }[] }>(
      t,
      '/invoice/list',
      { page: 1, pageSize: 50 },
      { token: alice.token },
    );
    expect(listed.data.list.find((i) => i.invoiceId === created.data.invoiceId)?.emailedAt).not.toBeNull();
    // sent once: another run of the job (a retry, a second worker) sends nothing
    const { enqueue } = await import('../../src/jobs/queue.ts');
    await enqueue(t.db, 'orders.invoice-mail', { invoiceId: created.data.invoiceId });
    await runOrdersJobs();
    expect(mine()).toHaveLength(1);
  });

  it('an order being refunded is invoiceable only for what the user keeps paying', async () => {
    const order = await paidOrder(alice, 10_000);
    const invoiceable = async () =>
      (
        await call<{ orderId: string; amountFen: number }[]>(t, '/invoice/orders', {}, { token: alice.token })
      ).data.find((o) => o.orderId === order.orderId)?.amountFen;
    const paid = (await orderRow(t, order.orderId)).amount_fen;
    expect(await invoiceable()).toBe(paid);
    // WeChat Pay accepts a refund and finishes it later: until then the money is on its way back.
    const wx = t.rt.providers.wx;
    const refund = wx.refund.bind(wx);
    wx.refund = async (input) => ({
      refundId: `wx-${input.refundNo}`,
      refundNo: input.refundNo,
      state: 'PROCESSING',
      amountFen: input.amountFen,
    });
    try {
      const part = await operator<{ status: string }>(t, '/orders/refund', {
        orderNo: order.orderNo,
        amountFen: 1_000,
        reason: '部分退款',
      });
      expect(part.data.status).toBe('processing');
      expect(await invoiceable()).toBe(paid - 1_000);
      const rest = await operator<{ status: string }>(t, '/orders/refund', {
        orderNo: order.orderNo,
        reason: '全部退款',
      });
      expect(rest.data.status).toBe('processing');
      expect(await invoiceable()).toBeUndefined();
      const refused = await call(
        t,
        '/invoice/create',
        { orderIds: [order.orderId], titleType: 'personal', title: '张三', email: 'zs@example.com' },
        { token: alice.token },
      );
      expect(refused.code).toBe(ErrorCode.INVOICE_ORDER_INVALID);
    } finally {
      wx.refund = refund;
    }
  });

  it('with 开票方式 review the invoice waits for the operator', async () => {
    const manual = await buildOrdersApp();
    await saveIssueMode(manual.db, 'review', 'test', manual.clock.now());
    try {
      const u = await newUser(manual);
      // The test goods (no service hooks in): a bare check order, with no check behind it, would
      // be refunded at once as a service that cannot be delivered.
      const order = await newOrder(manual, u.userId, 2_500);
      await startPay(manual, u.token, order.orderId, 'ali');
      await devPay(manual, order.orderNo);
      await manual.sandbox.notificationSettled('ali', order.orderNo);
      const created = await call<{ invoiceId: string; status: string }>(
        manual,
        '/invoice/create',
        { orderIds: [order.orderId], titleType: 'personal', title: '张三', email: 'zs@example.com' },
        { token: u.token },
      );
      expect(created.data.status).toBe('requested');
      const early = await manual.app.inject({
        method: 'GET',
        url: `/kyfw/web/v1/invoice/download?invoiceId=${created.data.invoiceId}`,
        headers: { token: u.token },
      });
      expect(early.json().code).toBe(ErrorCode.INVOICE_NOT_ISSUED);
      // An id that is no invoice's is bad input (not a database error), and issues nothing.
      const bogus = await operator(manual, '/invoices/issue', { invoiceId: 'not-an-id' });
      expect(bogus.code).toBe(ErrorCode.VALIDATION);
      expect(bogus.message).toBe('发票申请不存在');
      const issued = await operator<{ status: string }>(manual, '/invoices/issue', {
        invoiceId: created.data.invoiceId,
      });
      expect(issued.data.status).toBe('issued');
      const pdf = await manual.app.inject({
        method: 'GET',
        url: `/kyfw/web/v1/invoice/download?invoiceId=${created.data.invoiceId}`,
        headers: { token: u.token },
      });
      // 3 units of 1,000 characters at ¥2.00.
      expect(await pdfText(pdf.rawPayload)).toContain('陆元整');
    } finally {
      await manual.close();
    }
  });
});

async function pdfText(data: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), useSystemFonts: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join('');
  }
  await doc.destroy();
  return text;
}
