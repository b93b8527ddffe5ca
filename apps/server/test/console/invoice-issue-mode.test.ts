import { type ConsoleInvoice, ErrorCode, type InvoiceSettings } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
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

// 开票方式 (issue 23, decision 0031): invoices are issued at once or after finance checks 抬头 and
// 税号, as the console's setting says; by default 企业 titles wait for review, personal ones do not.

let t: OrdersTestApp;
let calls: ReturnType<typeof consoleCalls>;
const cookies = { finance: '', support: '' };

beforeAll(async () => {
  t = await buildOrdersApp();
  calls = consoleCalls(t);
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['finance', 'support'] as const)
    cookies[role] = await calls.cookieOf(await staff.create({ username: `${role}m`, role }));
});

afterAll(async () => {
  await t.close();
});

async function requestInvoice(titleType: 'personal' | 'company') {
  const user = await newUser(t);
  const order = await newOrder(t, user.userId, 10_000);
  await startPay(t, user.token, order.orderId, 'wx');
  await devPay(t, order.orderNo);
  await t.sandbox.notificationSettled('wx', order.orderNo);
  const title =
    titleType === 'company'
      ? { titleType, title: '北京某某科技有限公司', taxpayerId: '91110000802100433B' }
      : { titleType, title: '张三' };
  const created = await call<{ invoiceId: string; status: string; statusText: string }>(
    t,
    '/invoice/create',
    { orderIds: [order.orderId], ...title, email: 'finance@example.com' },
    { token: user.token },
  );
  expect(created.code).toBe(0);
  return created.data;
}

const setMode = (issueMode: string, cookie = cookies.finance) =>
  calls.post<InvoiceSettings>('/invoices/settings/save', { issueMode }, cookie);

const reviewQueue = async () =>
  (await calls.post<ConsoleInvoice[]>('/invoices/list', { tab: 'requested' }, cookies.finance)).body.data.map(
    (i) => i.invoiceId,
  );

describe('开票方式', () => {
  it('by default a 企业 title waits in the review queue, a personal one is issued at once', async () => {
    await t.db.deleteFrom('invoice_settings').execute();
    const settings = await calls.post<InvoiceSettings>('/invoices/settings', {}, cookies.support);
    expect(settings.body.data).toEqual({ issueMode: 'company_review', updatedBy: null, updatedAt: null });

    const company = await requestInvoice('company');
    expect(company.status).toBe('requested');
    expect(await reviewQueue()).toContain(company.invoiceId);
    const personal = await requestInvoice('personal');
    expect(personal.status).toBe('issued');
    expect(await reviewQueue()).not.toContain(personal.invoiceId);

    // Finance checks it and issues it from the queue.
    const issued = await calls.post<ConsoleInvoice>(
      '/invoices/generate',
      { invoiceId: company.invoiceId },
      cookies.finance,
    );
    expect(issued.body.data.status).toBe('issued');
  });

  it('finance switches it; every request waits, or none; the change is audited', async () => {
    const review = await setMode('review');
    expect(review.body).toMatchObject({ code: 0, data: { issueMode: 'review', updatedBy: 'financem' } });
    expect((await requestInvoice('personal')).status).toBe('requested');

    expect((await setMode('immediate')).body.code).toBe(0);
    expect((await requestInvoice('company')).status).toBe('issued');

    const [audit] = await calls.auditRows('invoice.settingsSave');
    expect(audit).toMatchObject({ outcome: 'ok', username: 'financem' });
    await setMode('company_review');
  });

  it('support reads it but cannot change it; a bad choice changes nothing', async () => {
    await setMode('company_review');
    const refused = await setMode('immediate', cookies.support);
    expect(refused.body.code).toBe(ErrorCode.FORBIDDEN);
    const bad = await setMode('sometimes');
    expect(bad.body).toMatchObject({ code: ErrorCode.VALIDATION, message: '请选择开票方式' });
    const now = await calls.post<InvoiceSettings>('/invoices/settings', {}, cookies.support);
    expect(now.body.data.issueMode).toBe('company_review');
  });
});
