import { type Commission, type ConsoleCommission, ErrorCode } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { sendCode } from '../accounts/accounts-helper.ts';
import { buildDocx, buildFakeExe, buildPdf } from '../check/fixtures.ts';
import { call, devPay, MINUTE, newUser, startPay } from '../orders/orders-helper.ts';
import {
  download,
  phoneOf,
  runCommissionJobs,
  staffCall,
  staffLogin,
  submitTechSearch,
  t,
  techEvaluationForm,
  uploadAttachment,
  uploadReport,
  useCommissionTestApp,
} from './commission-helper.ts';

// The commissioned services' flows (docs/api/commission.md): the shared payment, operators' quote /
// report / done with roles and audit, the done SMS, printed copies to an address, the report
// downloaded by its owner only, and what an account's deletion does to its commissions.

useCommissionTestApp();

describe('a 查新 from the form to the downloaded report', () => {
  it('is paid, delivered by an operator, announced by SMS and downloaded by its owner only', async () => {
    const user = await newUser(t);
    const stranger = await newUser(t);
    const submitted = await submitTechSearch(user.token, '已知文献.docx');
    expect(submitted.code).toBe(0);
    const c = submitted.data;
    expect(c).toMatchObject({
      service: 'tech_search',
      serviceName: '科技查新',
      reportName: '查新报告',
      status: 'pending_payment',
      statusText: '待支付',
      amount: '800.00',
      canPay: true,
      copies: 2,
    });
    expect(c.files.map((f) => f.fileName)).toEqual(['已知文献.docx']);
    expect(c.timeline.map((s) => [s.label, s.state])).toEqual([
      ['已提交', 'done'],
      ['待支付', 'current'],
      ['处理中', 'waiting'],
      ['已完成', 'waiting'],
    ]);

    // The printed copies go by courier to an address from the account's address book.
    const address = await call<{ id: string }>(
      t,
      '/address/save',
      {
        name: '王老师',
        phone: '13912345678',
        province: '北京市',
        city: '北京市',
        district: '海淀区',
        detail: '学院路 1 号图书馆 302',
      },
      { token: user.token },
    );
    expect(address.code).toBe(0);
    const delivery = await call<{ recipientName: string } | null>(
      t,
      '/order/delivery',
      { orderId: c.orderId, addressId: address.data.id },
      { token: user.token },
    );
    expect(delivery.data).toMatchObject({ recipientName: '王老师' });

    // Another user sees nothing of it.
    const peek = await call(
      t,
      '/commission/detail',
      { commissionId: c.commissionId },
      { token: stranger.token },
    );
    expect(peek.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    // The order is named right in the account's order list.
    const orders = await call<{ list: { serviceTypeText: string; goodsName: string }[] }>(
      t,
      '/order/list',
      { serviceType: 'commission' },
      { token: user.token },
    );
    expect(orders.data.list).toEqual([
      expect.objectContaining({ serviceTypeText: '科技查新', goodsName: '科技查新（国内，常规）' }),
    ]);

    // Pay through the shared flow (WeChat sandbox).
    const qr = await startPay(t, user.token, c.orderId!, 'wx');
    expect(qr.data.amountFen).toBe(80_000);
    expect((await devPay(t, qr.data.orderNo, 'wx')).code).toBe(0);
    expect(await t.sandbox.notificationSettled('wx', qr.data.orderNo)).toBe('acked');
    await runCommissionJobs();
    const paid = await call<Commission>(
      t,
      '/commission/detail',
      { commissionId: c.commissionId },
      { token: user.token },
    );
    expect(paid.data).toMatchObject({ status: 'processing', statusText: '处理中', canPay: false });
    expect((await t.orders.getOrder(c.orderId!))?.status).toBe('processing');

    // A support account may not fulfil (refused and audited); a fulfilment account may.
    const support = await staffLogin('support');
    const refused = await staffCall(support, '/detail', { commissionId: c.commissionId });
    expect(refused.code).toBe(ErrorCode.FORBIDDEN);
    const refusal = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'commission.detail')
      .where('outcome', '=', 'refused')
      .execute();
    expect(refusal.length).toBeGreaterThan(0);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/admin/commission/list',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(anonymous.json().code).toBe(ErrorCode.UNAUTHORIZED);

    const staff = await staffLogin('fulfilment');
    const queue = await staffCall<{ list: ConsoleCommission[] }>(staff, '/list', { status: 'processing' });
    expect(queue.data.list.map((x) => x.commissionId)).toContain(c.commissionId);
    const notADocument = await uploadReport(staff, c.commissionId, {
      bytes: buildFakeExe(),
      name: '报告.pdf',
    });
    expect(notADocument.code).not.toBe(0);
    const early = await staffCall(staff, '/complete', { commissionId: c.commissionId });
    expect(early).toMatchObject({ code: ErrorCode.CONFLICT, message: '请先上传报告文件，再标记完成' });

    const reportBytes = await buildPdf([{ text: '科技查新报告 查新结论：所查内容在国内未见相同报道。' }]);
    const withReport = await uploadReport(staff, c.commissionId, {
      bytes: reportBytes,
      name: '查新报告-盖章.pdf',
    });
    expect(withReport.code).toBe(0);
    const reportId = withReport.data.reports[0]!.fileId;
    // Not the client's before it is marked done.
    const tooEarly = await download(user.token, c.commissionId, reportId);
    expect(tooEarly.json().code).toBe(ErrorCode.CONFLICT);

    const done = await staffCall<ConsoleCommission>(staff, '/complete', { commissionId: c.commissionId });
    expect(done.data).toMatchObject({ status: 'done', statusText: '已完成' });
    const audited = await t.db
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'username'])
      .where('action', 'in', ['commission.report', 'commission.complete'])
      .where('outcome', '=', 'ok')
      .execute();
    expect(audited.map((a) => a.action).sort()).toEqual(['commission.complete', 'commission.report']);
    expect((await t.orders.getOrder(c.orderId!))?.status).toBe('done');

    // The done SMS (sandbox outbox), once.
    await runCommissionJobs();
    await runCommissionJobs();
    const phone = await phoneOf(user.userId);
    const sms = await t.app.inject({ method: 'GET', url: `/__dev/sms/last?phone=${phone}` });
    expect(sms.json().data).toMatchObject({ type: 'commission_done', code: qr.data.orderNo });

    const finished = await call<Commission>(
      t,
      '/commission/detail',
      { commissionId: c.commissionId },
      { token: user.token },
    );
    expect(finished.data.timeline.every((s) => s.state === 'done')).toBe(true);
    expect(finished.data.reports.map((r) => r.fileName)).toEqual(['查新报告-盖章.pdf']);
    const got = await download(user.token, c.commissionId, reportId);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(got.rawPayload).equals(Buffer.from(reportBytes))).toBe(true);
    const theirs = await download(stranger.token, c.commissionId, reportId);
    expect(theirs.json().code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });
});

describe('科技成果评价: quoted, then paid', () => {
  it('waits for a quote without an order, then has one of the quoted amount', async () => {
    const user = await newUser(t);
    const material = await uploadAttachment(user.token, {
      bytes: buildDocx([{ text: '成果技术报告。' }]),
      name: '技术报告.docx',
    });
    const submitted = await call<Commission>(
      t,
      '/commission/submit',
      techEvaluationForm([material.data.fileId]),
      { token: user.token },
    );
    expect(submitted.data).toMatchObject({
      status: 'quoting',
      statusText: '待报价',
      orderId: null,
      amount: null,
    });
    expect(submitted.data.timeline.map((s) => s.label)).toEqual([
      '已提交',
      '待报价',
      '待支付',
      '处理中',
      '已完成',
    ]);

    const staff = await staffLogin('fulfilment');
    const badQuote = await staffCall(staff, '/quote', {
      commissionId: submitted.data.commissionId,
      amount: 0,
    });
    expect(badQuote).toMatchObject({ code: ErrorCode.VALIDATION, message: '报价金额不能少于 1 元' });
    const quoted = await staffCall<ConsoleCommission>(staff, '/quote', {
      commissionId: submitted.data.commissionId,
      amount: 3000,
      note: '会议评价，专家 5 人',
    });
    expect(quoted.data).toMatchObject({
      status: 'pending_payment',
      amount: '3000.00',
      quoteNote: '会议评价，专家 5 人',
    });
    const again = await staffCall(staff, '/quote', { commissionId: submitted.data.commissionId, amount: 10 });
    expect(again.code).toBe(ErrorCode.CONFLICT);

    const mine = await call<Commission>(
      t,
      '/commission/detail',
      { commissionId: submitted.data.commissionId },
      { token: user.token },
    );
    expect(mine.data).toMatchObject({ canPay: true, amount: '3000.00' });
    expect(mine.data.timeline[1]).toMatchObject({ label: '待报价', state: 'done', note: '报价 ¥3,000.00' });
    const qr = await startPay(t, user.token, mine.data.orderId!, 'ali');
    expect(qr.data.amountFen).toBe(300_000);

    // The client may cancel an unpaid commission.
    const cancelled = await call<Commission>(
      t,
      '/commission/cancel',
      { commissionId: submitted.data.commissionId },
      { token: user.token },
    );
    expect(cancelled.data).toMatchObject({ status: 'cancelled', statusText: '已取消' });
  });
});

describe('account deletion', () => {
  it('refunds a paid commission not yet delivered, empties the forms and deletes the files', async () => {
    const user = await newUser(t);
    const phone = await phoneOf(user.userId);
    const submitted = await submitTechSearch(user.token, '申报书.docx');
    const attachment = { data: submitted.data.files[0]! };
    const qr = await startPay(t, user.token, submitted.data.orderId!, 'wx');
    await devPay(t, qr.data.orderNo, 'wx');
    expect(await t.sandbox.notificationSettled('wx', qr.data.orderNo)).toBe('acked');
    const stored = await t.db
      .selectFrom('commission_files')
      .select('storage_key')
      .where('id', '=', attachment.data.fileId)
      .executeTakeFirstOrThrow();
    expect(await t.root.services.check.storage.exists(stored.storage_key)).toBe(true);

    t.clock.advance(MINUTE);
    const code = await sendCode(t, phone, '4', { token: user.token });
    expect(
      (await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token: user.token })).code,
    ).toBe(0);

    const row = await t.db
      .selectFrom('commissions')
      .selectAll()
      .where('id', '=', submitted.data.commissionId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'cancelled', form: {}, title: '（账号已注销）' });
    const order = await t.orders.getOrder(submitted.data.orderId!);
    expect(order?.statusText).toContain('账号已注销');
    expect(order?.autoRefund).toBe(true);
    expect(
      await t.db.selectFrom('commission_files').selectAll().where('user_id', '=', user.userId).execute(),
    ).toEqual([]);
    for (let round = 0; round < 5 && (await runCommissionJobs()).length > 0; round++);
    expect(await t.root.services.check.storage.exists(stored.storage_key)).toBe(false);
  });
});
