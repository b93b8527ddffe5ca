import { ErrorCode, type FailedRefund } from '@kyfw/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { refundUndeliveredOrder } from '../../src/modules/orders/payments/refunds.service.ts';
import {
  buildOrdersApp,
  devPay,
  newOrder,
  newUser,
  type OrdersTestApp,
  orderRow,
  setFaults,
  startPay,
} from '../orders/orders-helper.ts';
import { consoleCalls } from './console-helper.ts';

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
let user: { token: string; userId: string };
const cookies: Record<'finance' | 'support' | 'editor', string> = { finance: '', support: '', editor: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  user = await newUser(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['finance', 'support', 'editor'] as const) {
    cookies[role] = await calls.cookieOf(await staff.create({ username: `${role}1`, role }));
  }
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  await setFaults(t, { reset: true });
});

/** A paid WeChat order whose service failed and whose automatic refund the platform refused. */
async function failedAutomaticRefund() {
  const order = await newOrder(t, user.userId, 10_000);
  await startPay(t, user.token, order.orderId, 'wx');
  await devPay(t, order.orderNo);
  await t.sandbox.notificationSettled('wx', order.orderNo);
  await setFaults(t, { channel: 'wx', refuseRefundNext: 1 });
  await refundUndeliveredOrder(t.rt, order.orderId, { reason: '检测失败，自动退款', statusText: '检测失败' });
  const refund = await t.db
    .selectFrom('refunds')
    .selectAll()
    .where('order_id', '=', order.orderId)
    .executeTakeFirstOrThrow();
  expect(refund.status).toBe('failed');
  return { order, refundNo: refund.refund_no };
}

async function queue(cookie = cookies.finance) {
  const { body } = await calls.post<FailedRefund[]>('/refunds/failed', {}, cookie);
  expect(body.code).toBe(0);
  return body.data!;
}

describe('refunds that failed (退款未能自动完成)', () => {
  it('lists them; a retry the platform refuses again says so and keeps it queued; the next one refunds the order', async () => {
    const { order, refundNo } = await failedAutomaticRefund();
    const listed = (await queue(cookies.support)).find((r) => r.refundNo === refundNo);
    expect(listed).toMatchObject({
      orderNo: order.orderNo,
      amount: '20.00',
      actor: 'system',
      channelText: '微信支付',
      reason: '检测失败，自动退款',
    });
    expect(listed!.lastError).toBeTruthy();

    await setFaults(t, { channel: 'wx', refuseRefundNext: 1 });
    const again = await calls.post('/refunds/retry', { refundNo }, cookies.finance);
    expect(again.body.code).toBe(ErrorCode.REFUND_FAILED);
    expect(again.body.message).toMatch(/^重试仍未成功/);
    expect((await queue()).map((r) => r.refundNo)).toContain(refundNo);
    const [failedRow] = await calls.auditRows('refund.retry');
    expect(failedRow).toMatchObject({ username: 'finance1', outcome: 'failed' });

    const retried = await calls.post<{ status: string }>('/refunds/retry', { refundNo }, cookies.finance);
    expect(retried.body).toMatchObject({ code: 0, data: { refundNo, status: 'succeeded' } });
    expect((await queue()).map((r) => r.refundNo)).not.toContain(refundNo);
    expect((await orderRow(t, order.orderId)).status).toBe('refunded');
    const [okRow] = await calls.auditRows('refund.retry');
    expect(okRow).toMatchObject({
      outcome: 'ok',
      target: refundNo,
      before: { status: 'failed' },
      after: { status: 'succeeded' },
    });
  });

  it('marked done by hand with how the money went back: succeeded, the order refunded, the note audited', async () => {
    const { order, refundNo } = await failedAutomaticRefund();
    const noNote = await calls.post('/refunds/markDone', { refundNo, note: ' ' }, cookies.finance);
    expect(noNote.body).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '请填写退款方式（如已通过银行转账退回）',
    });
    const done = await calls.post<{ status: string }>(
      '/refunds/markDone',
      { refundNo, note: '已通过银行转账退回，流水号 123' },
      cookies.finance,
    );
    expect(done.body).toMatchObject({
      code: 0,
      message: '已标记为人工退款完成',
      data: { status: 'succeeded' },
    });
    const row = await t.db
      .selectFrom('refunds')
      .selectAll()
      .where('refund_no', '=', refundNo)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ handled_by: 'finance1', handled_note: '已通过银行转账退回，流水号 123' });
    expect((await orderRow(t, order.orderId)).status).toBe('refunded');
    const [audit] = await calls.auditRows('refund.markDone');
    expect(audit).toMatchObject({
      outcome: 'ok',
      target: refundNo,
      after: { note: '已通过银行转账退回，流水号 123' },
    });

    // Done is done: neither action applies to it again.
    const twice = await calls.post('/refunds/markDone', { refundNo, note: '再次' }, cookies.finance);
    expect(twice.body).toMatchObject({ code: ErrorCode.CONFLICT, message: '该退款不是失败状态，无需处理' });
    const retry = await calls.post('/refunds/retry', { refundNo }, cookies.finance);
    expect(retry.body.code).toBe(ErrorCode.CONFLICT);
  });

  it('refuses support and editors their actions, an editor even the list, and bad refund numbers', async () => {
    const { refundNo } = await failedAutomaticRefund();
    for (const path of ['/refunds/retry', '/refunds/markDone']) {
      const refused = await calls.post(path, { refundNo, note: '已退' }, cookies.support);
      expect(refused.body.code).toBe(ErrorCode.FORBIDDEN);
      expect(refused.body.message).toBe('当前角色（客服）无权执行此操作，需要：管理员、财务');
    }
    expect((await calls.post('/refunds/failed', {}, cookies.editor)).body.code).toBe(ErrorCode.FORBIDDEN);
    expect((await queue()).map((r) => r.refundNo)).toContain(refundNo);
    const refused = (await calls.auditRows('refund.markDone')).find((r) => r.outcome === 'refused');
    expect(refused).toMatchObject({ username: 'support1', role: 'support' });

    const malformed = await calls.post('/refunds/retry', { refundNo: 'RF123' }, cookies.finance);
    expect(malformed.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '退款单号格式错误' });
    const unknown = await calls.post('/refunds/retry', { refundNo: `RF${'9'.repeat(20)}` }, cookies.finance);
    expect(unknown.body).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '退款记录不存在' });
  });
});
