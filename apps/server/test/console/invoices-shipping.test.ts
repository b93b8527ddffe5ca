import type { ConsoleDelivery, ConsoleInvoice } from '@kyfw/contracts';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { saveIssueMode } from '../../src/modules/orders/invoices/invoices.repo.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  newOrder,
  newUser,
  type OrdersTestApp,
  startPay,
} from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
let user: { token: string; userId: string };
const cookies = { finance: '', fulfilment: '', support: '', editor: '' };

beforeAll(async () => {
  // Invoices wait for an operator (开票方式: every request reviewed).
  t = await buildOrdersApp();
  await saveIssueMode(t.db, 'review', 'test', t.clock.now());
  calls = consoleCalls(t);
  user = await newUser(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['finance', 'fulfilment', 'support', 'editor'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `${role}1`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

async function paidOrder(quantity = 10_000) {
  const order = await newOrder(t, user.userId, quantity);
  await startPay(t, user.token, order.orderId, 'wx');
  await devPay(t, order.orderNo);
  await t.sandbox.notificationSettled('wx', order.orderNo);
  return order;
}

async function requestInvoice() {
  const order = await paidOrder();
  const created = await call<{ invoiceId: string; status: string }>(
    t,
    '/invoice/create',
    { orderIds: [order.orderId], titleType: 'personal', title: '张三', email: 'zhangsan@example.com' },
    { token: user.token },
  );
  expect(created.data.status).toBe('requested');
  return { order, invoiceId: created.data.invoiceId };
}

async function tab(name: 'requested' | 'issued' | 'reversal', cookie = cookies.finance) {
  const { body } = await calls.post<ConsoleInvoice[]>('/invoices/list', { tab: name }, cookie);
  expect(body.code).toBe(0);
  return body.data!;
}

function upload(invoiceId: string, file: Buffer, cookie: string, path = '/invoices/upload') {
  const form = new FormData();
  form.append('invoiceId', invoiceId);
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'invoice.pdf');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return request.arrayBuffer().then((payload) =>
    t.app
      .inject({
        method: 'POST',
        url: `/kyfw/web/v1/admin${path}`,
        headers: { cookie, 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(payload),
      })
      .then((res) => res.json() as { code: number; message: string; data: ConsoleInvoice }),
  );
}

function download(invoiceId: string, extra: { red?: boolean } = {}, token = user.token) {
  return t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/invoice/download',
    headers: { token, 'content-type': 'application/json' },
    payload: JSON.stringify({ invoiceId, ...extra }),
  });
}

describe('invoices', () => {
  it('finance generates a requested invoice: it leaves the queue and the user downloads the PDF', async () => {
    const { invoiceId, order } = await requestInvoice();
    const queued = (await tab('requested', cookies.support)).find((i) => i.invoiceId === invoiceId);
    expect(queued).toMatchObject({ title: '张三', email: 'zhangsan@example.com', amount: '20.00' });
    expect(queued!.orders).toMatchObject([{ orderNo: order.orderNo, amount: '20.00' }]);

    const generated = await calls.post<ConsoleInvoice>('/invoices/generate', { invoiceId }, cookies.finance);
    expect(generated.body).toMatchObject({ code: 0, data: { status: 'issued' } });
    expect((await tab('requested')).map((i) => i.invoiceId)).not.toContain(invoiceId);
    expect((await tab('issued')).map((i) => i.invoiceId)).toContain(invoiceId);
    const pdf = await download(invoiceId);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [audit] = await calls.auditRows('invoice.generate');
    expect(audit).toMatchObject({
      outcome: 'ok',
      before: { status: 'requested' },
      after: { status: 'issued' },
    });
  });

  it('finance attaches the real PDF: the user downloads exactly that file; a non-PDF and a second upload are refused', async () => {
    const { invoiceId } = await requestInvoice();
    const notPdf = await upload(invoiceId, Buffer.from('hello, not a pdf'), cookies.finance);
    expect(notPdf).toMatchObject({ code: ErrorCode.VALIDATION, message: '请上传 PDF 格式的发票文件' });
    expect((await tab('requested')).map((i) => i.invoiceId)).toContain(invoiceId);

    const real = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('税务发票 12345678\n%%EOF\n')]);
    const done = await upload(invoiceId, real, cookies.finance);
    expect(done).toMatchObject({ code: 0, data: { status: 'issued' } });
    expect((await download(invoiceId)).rawPayload.equals(real)).toBe(true);
    const again = await upload(invoiceId, real, cookies.finance);
    expect(again).toMatchObject({ code: ErrorCode.CONFLICT, message: '该发票已开具' });
    const [audit] = (await calls.auditRows('invoice.upload')).filter((r) => r.outcome === 'ok');
    expect(audit).toMatchObject({ after: { pdf: 'uploaded', bytes: real.length } });
  });

  it('an issued invoice whose order is refunded is listed for 红冲', async () => {
    const { invoiceId, order } = await requestInvoice();
    await calls.post('/invoices/generate', { invoiceId }, cookies.finance);
    expect((await tab('reversal')).map((i) => i.invoiceId)).not.toContain(invoiceId);
    const refund = await calls.post(
      '/refunds/create',
      { orderNo: order.orderNo, amountFen: order.amountFen, reason: '用户申请退款' },
      cookies.finance,
    );
    expect(refund.body.code).toBe(0);
    const listed = (await tab('reversal')).find((i) => i.invoiceId === invoiceId);
    expect(listed!.orders[0]).toMatchObject({
      orderNo: order.orderNo,
      refundedFen: 2000,
      statusText: '已退款',
    });
  });

  it('finance records the 红冲: the invoice leaves the 红冲 list and the user sees 已红冲; only once, only when refunded', async () => {
    const { invoiceId, order } = await requestInvoice();
    await calls.post('/invoices/generate', { invoiceId }, cookies.finance);
    const note = { invoiceId, note: '红字发票 0123456789' };
    // Not refunded: nothing to reverse, nothing recorded.
    const early = await calls.post('/invoices/reverse', note, cookies.finance);
    expect(early.body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: expect.stringContaining('无需红冲'),
    });
    await calls.post(
      '/refunds/create',
      { orderNo: order.orderNo, amountFen: order.amountFen, reason: '用户申请退款' },
      cookies.finance,
    );
    expect((await calls.post('/invoices/reverse', note, cookies.support)).body.code).toBe(
      ErrorCode.FORBIDDEN,
    );
    const blank = await calls.post('/invoices/reverse', { invoiceId, note: '  ' }, cookies.finance);
    expect(blank.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '请填写红字发票号码或说明' });
    expect((await tab('reversal')).map((i) => i.invoiceId)).toContain(invoiceId);

    const done = await calls.post<ConsoleInvoice>('/invoices/reverse', note, cookies.finance);
    expect(done.body).toMatchObject({ code: 0, data: { reversalNote: '红字发票 0123456789' } });
    expect(done.body.data!.reversedAt).not.toBeNull();
    expect((await tab('reversal')).map((i) => i.invoiceId)).not.toContain(invoiceId);
    expect((await tab('issued')).find((i) => i.invoiceId === invoiceId)?.reversalNote).toBe(
      '红字发票 0123456789',
    );
    const mine = await call<{ list: { invoiceId: string; statusText: string }[] }>(
      t,
      '/invoice/list',
      { page: 1, pageSize: 50 },
      { token: user.token },
    );
    expect(mine.data.list.find((i) => i.invoiceId === invoiceId)?.statusText).toBe('已红冲');
    const again = await calls.post('/invoices/reverse', note, cookies.finance);
    expect(again.body.code).toBe(ErrorCode.VALIDATION);
    const [audit] = (await calls.auditRows('invoice.reverse')).filter((r) => r.outcome === 'ok');
    expect(audit).toMatchObject({
      before: { reversed: false },
      after: { reversed: true, note: '红字发票 0123456789' },
    });
  });

  it('finance attaches the red invoice PDF to the 红冲: the user downloads it as 红字发票, nobody else does; deleted with the account', async () => {
    const owner = await newUser(t);
    const order = await newOrder(t, owner.userId, 10_000);
    await startPay(t, owner.token, order.orderId, 'wx');
    await devPay(t, order.orderNo);
    await t.sandbox.notificationSettled('wx', order.orderNo);
    const created = await call<{ invoiceId: string }>(
      t,
      '/invoice/create',
      { orderIds: [order.orderId], titleType: 'personal', title: '李雷', email: 'lilei@example.com' },
      { token: owner.token },
    );
    const { invoiceId } = created.data;
    await calls.post('/invoices/generate', { invoiceId }, cookies.finance);
    await calls.post(
      '/refunds/create',
      { orderNo: order.orderNo, amountFen: order.amountFen, reason: '用户申请退款' },
      cookies.finance,
    );
    const red = Buffer.from('%PDF-1.7\n红字发票 0987654321\n%%EOF\n');
    const toRed = (file: Buffer, cookie = cookies.finance) =>
      upload(invoiceId, file, cookie, '/invoices/reversalUpload');

    // Before the 红冲 is recorded there is nothing to attach it to.
    expect(await toRed(red)).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请先登记红冲（红字发票号码），再上传红字发票 PDF',
    });
    await calls.post('/invoices/reverse', { invoiceId, note: '红字发票 0987654321' }, cookies.finance);
    // The invoice upload's checks: a PDF only, support may not.
    expect(await toRed(Buffer.from('GIF89a not a pdf'))).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请上传 PDF 格式的发票文件',
    });
    expect((await toRed(red, cookies.support)).code).toBe(ErrorCode.FORBIDDEN);
    const listMine = async (token = owner.token) =>
      (
        await call<{ list: { invoiceId: string; statusText: string; hasReversalPdf: boolean }[] }>(
          t,
          '/invoice/list',
          { page: 1, pageSize: 50 },
          { token },
        )
      ).data.list.find((i) => i.invoiceId === invoiceId);
    expect(await listMine()).toMatchObject({ statusText: '已红冲', hasReversalPdf: false });
    expect((await download(invoiceId, { red: true }, owner.token)).json()).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
      message: '该发票没有可下载的红字发票',
    });

    const done = await toRed(red);
    expect(done).toMatchObject({
      code: 0,
      data: { hasReversalPdf: true, reversalNote: '红字发票 0987654321' },
    });
    expect(await listMine()).toMatchObject({ statusText: '已红冲', hasReversalPdf: true });
    const mine = await download(invoiceId, { red: true }, owner.token);
    expect(mine.rawPayload.equals(red)).toBe(true);
    expect(decodeURIComponent(String(mine.headers['content-disposition']))).toContain(
      `红字发票-${done.data.invoiceNo}.pdf`,
    );
    // The invoice itself is still the blue one.
    expect((await download(invoiceId, {}, owner.token)).rawPayload.equals(red)).toBe(false);
    // Another user gets nothing; finance and support read it in the console.
    expect((await download(invoiceId, { red: true }, user.token)).json()).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
    });
    const consoleFile = await t.app.inject({
      method: 'GET',
      url: `/kyfw/web/v1/admin/invoices/reversalFile?invoiceId=${invoiceId}`,
      headers: { cookie: cookies.support },
    });
    expect(consoleFile.rawPayload.equals(red)).toBe(true);
    // Once.
    expect(await toRed(red)).toMatchObject({ code: ErrorCode.CONFLICT, message: '该发票的红字发票已上传' });
    const rows = await calls.auditRows('invoice.reversalUpload');
    expect(rows.map((r) => r.outcome).sort()).toEqual(['failed', 'failed', 'failed', 'ok', 'refused']);
    expect(rows.find((r) => r.outcome === 'ok')).toMatchObject({
      username: 'finance1',
      target: done.data.invoiceNo,
      before: { reversalPdf: false },
      after: { reversalPdf: true, bytes: red.length, note: '红字发票 0987654321' },
    });

    // Deleted with the account, like the invoice's own PDF.
    const key = (
      await t.db
        .selectFrom('invoices')
        .select('reversal_pdf_file_key')
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow()
    ).reversal_pdf_file_key!;
    await t.db.transaction().execute((tx) =>
      t.root.services.accounts.hooks.runDeletion(tx, owner.userId, {
        db: t.db,
        now: t.clock.now(),
        status: 'deleted',
      }),
    );
    expect(
      await t.db
        .selectFrom('invoices')
        .select(['reversal_pdf_file_key', 'pdf_file_key'])
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ reversal_pdf_file_key: null, pdf_file_key: null });
    const purges = await t.db
      .selectFrom('jobs')
      .select('payload')
      .where('name', '=', 'orders.purge-files')
      .execute();
    expect(purges.flatMap((j) => (j.payload as { keys: string[] }).keys)).toContain(key);
  });

  it('support and editors cannot issue; editors cannot read; bad ids are refused', async () => {
    const { invoiceId } = await requestInvoice();
    const refused = await calls.post('/invoices/generate', { invoiceId }, cookies.support);
    expect(refused.body).toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect((await upload(invoiceId, Buffer.from('%PDF-1.4'), cookies.support)).code).toBe(
      ErrorCode.FORBIDDEN,
    );
    expect((await calls.post('/invoices/list', {}, cookies.editor)).body.code).toBe(ErrorCode.FORBIDDEN);
    expect((await tab('requested')).map((i) => i.invoiceId)).toContain(invoiceId);
    const bad = await calls.post('/invoices/generate', { invoiceId: 'nope' }, cookies.finance);
    expect(bad.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '发票申请不存在' });
    const unknown = await calls.post(
      '/invoices/generate',
      { invoiceId: '00000000-0000-4000-8000-000000000000' },
      cookies.finance,
    );
    expect(unknown.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '发票申请不存在' });
  });
});

describe('courier shipping', () => {
  it('fulfilment ships a paid order with an address; the user sees the carrier and tracking number', async () => {
    const address = await call<{ id: string }>(
      t,
      '/address/save',
      {
        name: '张三',
        phone: '13800138000',
        province: '北京市',
        city: '北京市',
        district: '海淀区',
        detail: '学院路1号',
      },
      { token: user.token },
    );
    const order = await paidOrder(1_000);
    await call(
      t,
      '/order/delivery',
      { orderId: order.orderId, addressId: address.data.id },
      { token: user.token },
    );
    const waiting = await calls.post<ConsoleDelivery[]>('/deliveries/list', {}, cookies.support);
    expect(waiting.body.data!.find((d) => d.orderNo === order.orderNo)).toMatchObject({
      recipientName: '张三',
      detail: '学院路1号',
      statusText: '待发货',
    });

    const refused = await calls.post(
      '/deliveries/ship',
      { orderNo: order.orderNo, carrier: '顺丰速运', trackingNo: 'SF1234567890' },
      cookies.support,
    );
    expect(refused.body.code).toBe(ErrorCode.FORBIDDEN);
    const badNo = await calls.post(
      '/deliveries/ship',
      { orderNo: order.orderNo, carrier: '顺丰速运', trackingNo: '12' },
      cookies.fulfilment,
    );
    expect(badNo.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '快递单号格式错误' });

    const shipped = await calls.post(
      '/deliveries/ship',
      { orderNo: order.orderNo, carrier: '顺丰速运', trackingNo: 'SF1234567890' },
      cookies.fulfilment,
    );
    expect(shipped.body).toMatchObject({
      code: 0,
      data: { carrier: '顺丰速运', trackingNo: 'SF1234567890' },
    });
    const mine = await call<{ delivery: { carrier: string; trackingNo: string; statusText: string } }>(
      t,
      '/order/detail',
      { orderId: order.orderId },
      { token: user.token },
    );
    expect(mine.data.delivery).toMatchObject({
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
      statusText: '已发货',
    });
    const after = await calls.post<ConsoleDelivery[]>(
      '/deliveries/list',
      { shipped: true },
      cookies.fulfilment,
    );
    expect(after.body.data!.map((d) => d.orderNo)).toContain(order.orderNo);
    const [audit] = await calls.auditRows('delivery.ship');
    expect(audit).toMatchObject({
      outcome: 'ok',
      target: order.orderNo,
      after: { trackingNo: 'SF1234567890' },
    });
  });
});
