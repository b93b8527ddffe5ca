import { type Commission, type ConsoleCommission, ErrorCode } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { ordersJobDefinitions } from '../../src/modules/orders/orders.jobs.ts';
import type { SandboxMailProvider } from '../../src/providers/mail/index.ts';
import { buildPdf } from '../check/fixtures.ts';
import { call, type Envelope, newUser } from '../orders/orders-helper.ts';
import {
  paidCommission,
  phoneOf,
  runCommissionJobs,
  staffCall,
  staffLogin,
  t,
  techSearchForm,
  uploadReport,
  useCommissionTestApp,
} from './commission-helper.ts';

// A refund ends the commission (issue 23, decision 0031): an operator's refund of everything left
// takes it out of the 委托办理 queue, the client sees 已退款, staff actions on it are refused with a
// clear message, and the client is told by SMS (and e-mail when the form gave one). The console's
// refund names its amount: a blank amount refunds nothing.

useCommissionTestApp();

async function consoleCall<T>(cookie: string, path: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin${path}`,
    headers: { 'content-type': 'application/json', cookie },
    payload: JSON.stringify(body),
  });
  return res.json() as Envelope<T>;
}

async function runOrdersJobs() {
  const worker = createWorker({ db: t.db, definitions: ordersJobDefinitions, services: t.root.services });
  for (let round = await worker.tick(); round.length > 0; round = await worker.tick());
  await worker.stop();
}

const detailOf = async (token: string, commissionId: string) =>
  (await call<Commission>(t, '/commission/detail', { commissionId }, { token })).data;

describe('a refunded commission', () => {
  it('leaves the queue, reads 已退款, refuses report and 标记完成, and tells the client', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, techSearchForm({ email: 'refund.me@example.edu.cn' }));
    expect((await detailOf(user.token, c.commissionId)).status).toBe('processing');
    const finance = await staffLogin('finance');
    const staff = await staffLogin('fulfilment');

    // A blank amount refunds nothing: the console must name the amount it confirmed.
    const blank = await consoleCall(finance, '/refunds/create', {
      orderNo: c.orderNo,
      reason: '用户申请退款',
    });
    expect(blank).toMatchObject({ code: ErrorCode.VALIDATION, message: '请填写退款金额' });
    expect((await t.orders.getOrder(c.orderId!))?.status).toBe('processing');

    const refund = await consoleCall<{ amountFen: number; status: string }>(finance, '/refunds/create', {
      orderNo: c.orderNo,
      amountFen: 80_000,
      reason: '用户申请退款',
    });
    expect(refund).toMatchObject({ code: 0, data: { amountFen: 80_000 } });
    expect((await t.orders.getOrder(c.orderId!))?.status).toBe('refunded');

    // The client sees 已退款, with the amount on the timeline, never 处理中.
    const seen = await detailOf(user.token, c.commissionId);
    expect(seen).toMatchObject({ status: 'refunded', statusText: '已退款', canPay: false, canCancel: false });
    expect(seen.timeline.at(-1)).toMatchObject({
      label: '已退款',
      state: 'current',
      note: '已全额退款 ¥800.00，款项按原支付方式退回',
    });
    const listed = await call<{ list: Commission[] }>(
      t,
      '/commission/list',
      { page: 1, pageSize: 10 },
      {
        token: user.token,
      },
    );
    expect(listed.data.list.find((x) => x.commissionId === c.commissionId)?.statusText).toBe('已退款');

    // Out of the 处理中 queue; under 已退款.
    const queue = await staffCall<{ list: ConsoleCommission[] }>(staff, '/list', {
      status: 'processing',
      page: 1,
      pageSize: 50,
    });
    expect(queue.data.list.map((x) => x.commissionId)).not.toContain(c.commissionId);
    const refundedTab = await staffCall<{ list: ConsoleCommission[] }>(staff, '/list', {
      status: 'refunded',
      page: 1,
      pageSize: 50,
    });
    expect(refundedTab.data.list.map((x) => x.commissionId)).toContain(c.commissionId);

    // Staff actions are refused with a clear message (never 1000 服务器繁忙), and nothing is stored.
    const upload = await uploadReport(staff, c.commissionId, {
      bytes: await buildPdf([{ text: '查新报告。' }]),
      name: '查新报告.pdf',
    });
    expect(upload).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '该委托已全额退款，办理已终止，不能再上传报告或标记完成',
    });
    const complete = await staffCall(staff, '/complete', { commissionId: c.commissionId });
    expect(complete).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: '该委托已全额退款，办理已终止，不能再上传报告或标记完成',
    });
    const reports = await t.db
      .selectFrom('commission_files')
      .select('id')
      .where('commission_id', '=', c.commissionId)
      .where('kind', '=', 'report')
      .execute();
    expect(reports).toEqual([]);

    // The printed copies are not shipped any more.
    const ship = await consoleCall(staff, '/deliveries/ship', {
      orderNo: c.orderNo,
      carrier: '顺丰速运',
      trackingNo: 'SF1234567890',
    });
    expect(ship).toMatchObject({
      code: ErrorCode.DELIVERY_NOT_ALLOWED,
      message: '该订单已全额退款，不再寄送纸质报告',
    });

    // The notices: one SMS with the order number (sandbox outbox), one e-mail to the form's address.
    await runOrdersJobs();
    await runCommissionJobs();
    const sms = await t.app.inject({
      method: 'GET',
      url: `/__dev/sms/last?phone=${await phoneOf(user.userId)}`,
    });
    expect(sms.json().data).toMatchObject({ type: 'order_refunded', code: c.orderNo });
    const mails = (t.rt.mail as SandboxMailProvider).sent.filter((m) => m.to === 'refund.me@example.edu.cn');
    expect(mails.map((m) => m.subject)).toEqual([
      `【科研服务网】您委托的科技查新已退款（订单号 ${c.orderNo}）`,
    ]);
    const detail = await staffCall<{ notices: { kindText: string; status: string }[] }>(staff, '/detail', {
      commissionId: c.commissionId,
    });
    expect(detail.data.notices).toEqual([
      expect.objectContaining({ kindText: '退款通知邮件', status: 'sent' }),
    ]);
  });

  it('a partial refund leaves the commission running; it can still be delivered', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, techSearchForm());
    const finance = await staffLogin('finance');
    const part = await consoleCall(finance, '/refunds/create', {
      orderNo: c.orderNo,
      amountFen: 10_000,
      reason: '加急未达成，退还差价',
    });
    expect(part.code).toBe(0);
    expect(await detailOf(user.token, c.commissionId)).toMatchObject({
      status: 'processing',
      statusText: '处理中',
    });
    const staff = await staffLogin('fulfilment');
    const uploaded = await uploadReport(staff, c.commissionId, {
      bytes: await buildPdf([{ text: '查新报告。' }]),
      name: '查新报告.pdf',
    });
    expect(uploaded.code).toBe(0);
    const done = await staffCall<ConsoleCommission>(staff, '/complete', { commissionId: c.commissionId });
    expect(done.data).toMatchObject({ status: 'done', statusText: '已完成' });
  });

  it('a delivered commission refunded afterwards reads 已退款, as its order does', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, techSearchForm());
    const staff = await staffLogin('fulfilment');
    await uploadReport(staff, c.commissionId, {
      bytes: await buildPdf([{ text: '报告。' }]),
      name: '报告.pdf',
    });
    expect((await staffCall(staff, '/complete', { commissionId: c.commissionId })).code).toBe(0);
    const finance = await staffLogin('finance');
    const refund = await consoleCall(finance, '/refunds/create', {
      orderNo: c.orderNo,
      amountFen: 80_000,
      reason: '报告有误，全额退款',
    });
    expect(refund.code).toBe(0);
    expect(await detailOf(user.token, c.commissionId)).toMatchObject({
      status: 'done',
      statusText: '已退款',
    });
  });
});

describe('an order refunded in full', () => {
  it('cannot be marked processing or done by a service: a clear message, not 服务器繁忙', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, techSearchForm());
    const finance = await staffLogin('finance');
    await consoleCall(finance, '/refunds/create', { orderNo: c.orderNo, amountFen: 80_000, reason: '退款' });
    for (const step of [() => t.orders.markDone(c.orderId!), () => t.orders.markProcessing(c.orderId!)])
      await expect(step()).rejects.toMatchObject({
        code: ErrorCode.CONFLICT,
        message: '该订单已退款，服务已终止，不能再办理或标记完成',
      });
  });
});
