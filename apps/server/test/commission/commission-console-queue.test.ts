import type { Commission, ConsoleCommission } from '@kyfw/contracts';
import { ErrorCode } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { buildDocx } from '../check/fixtures.ts';
import { call, newUser, SECOND } from '../orders/orders-helper.ts';
import {
  phoneOf,
  staffCall,
  staffLogin,
  t,
  techEvaluationForm,
  techSearchForm,
  uploadAttachment,
  useCommissionTestApp,
} from './commission-helper.ts';

// 委托办理's queue as an operator works it (issue 23): every tab's count, search by 委托编号, phone
// or contact, the submission-day range, and the same filter exported as CSV (role checked, audited).

useCommissionTestApp();

type Listed = { list: ConsoleCommission[]; total: number; counts: Record<string, number> };

async function submit(token: string, form: Record<string, unknown>) {
  const res = await call<Commission>(t, '/commission/submit', form, { token });
  expect(res.code).toBe(0);
  return res.data;
}

describe('委托办理 queue: counts, search, dates and CSV', () => {
  it('counts each status, finds a commission by number, phone or contact, and exports the same filter', async () => {
    const user = await newUser(t);
    const material = await uploadAttachment(user.token, {
      bytes: buildDocx([{ text: '成果材料：内容。' }]),
      name: '成果材料.docx',
    });
    const evaluation = await submit(
      user.token,
      techEvaluationForm([material.data.fileId], { contactName: '赵=老师', contactPhone: '13700001111' }),
    );
    t.clock.advance(SECOND); // submitted a second later: the oldest-first order is theirs, not a tie
    const search = await submit(
      user.token,
      techSearchForm({ contactName: '钱老师', contactPhone: '13700002222' }),
    );
    expect([evaluation.status, search.status]).toEqual(['quoting', 'pending_payment']);
    const staff = await staffLogin('fulfilment');

    const all = await staffCall<Listed>(staff, '/list', {});
    expect(all.code).toBe(0);
    expect(all.data.counts.quoting).toBeGreaterThanOrEqual(1);
    expect(all.data.counts.pending_payment).toBeGreaterThanOrEqual(1);
    expect(Object.values(all.data.counts).reduce((a, b) => a + b, 0)).toBe(all.data.total);

    // By 委托编号 (part of it), the contact's phone, the contact's name, the account's phone.
    const byNo = await staffCall<Listed>(staff, '/list', { q: evaluation.commissionNo.slice(-8) });
    expect(byNo.data.list.map((c) => c.commissionNo)).toEqual([evaluation.commissionNo]);
    expect(byNo.data.counts).toMatchObject({ quoting: 1, pending_payment: 0, processing: 0 });
    const byContactPhone = await staffCall<Listed>(staff, '/list', { q: '13700002222' });
    expect(byContactPhone.data.list.map((c) => c.commissionNo)).toEqual([search.commissionNo]);
    const byContact = await staffCall<Listed>(staff, '/list', { q: '钱老师' });
    expect(byContact.data.list.map((c) => c.commissionNo)).toEqual([search.commissionNo]);
    const byAccount = await staffCall<Listed>(staff, '/list', { q: await phoneOf(user.userId) });
    expect(byAccount.data.total).toBe(2);
    const withStatus = await staffCall<Listed>(staff, '/list', {
      q: await phoneOf(user.userId),
      status: 'quoting',
    });
    expect(withStatus.data.list.map((c) => c.commissionNo)).toEqual([evaluation.commissionNo]);
    expect(withStatus.data.counts).toMatchObject({ quoting: 1, pending_payment: 1 });
    const nobody = await staffCall<Listed>(staff, '/list', { q: '100%_' });
    expect(nobody.data.total).toBe(0);

    // Submission days (China time): today is in, tomorrow is not; a backwards range is refused.
    const today = new Date(t.clock.now().getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock.now().getTime() + 32 * 3_600_000).toISOString().slice(0, 10);
    const inRange = await staffCall<Listed>(staff, '/list', { q: '钱老师', from: today, to: today });
    expect(inRange.data.total).toBe(1);
    const later = await staffCall<Listed>(staff, '/list', { q: '钱老师', from: tomorrow });
    expect(later.data.total).toBe(0);
    const backwards = await staffCall<Listed>(staff, '/list', { from: tomorrow, to: today });
    expect(backwards).toMatchObject({ code: ErrorCode.VALIDATION, message: '开始日期不能晚于结束日期' });
    const badDay = await staffCall<Listed>(staff, '/list', { from: '2026/01/01' });
    expect(badDay).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: '开始日期格式错误，应为 YYYY-MM-DD',
    });
    const oldest = await staffCall<Listed>(staff, '/list', { q: await phoneOf(user.userId), sort: 'oldest' });
    expect(oldest.data.list.map((c) => c.commissionNo)).toEqual([
      evaluation.commissionNo,
      search.commissionNo,
    ]);

    // CSV: UTF-8 with a BOM, Chinese headers, the filter's rows, a formula-like cell made text.
    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/admin/commission/export',
      headers: { 'content-type': 'application/json', cookie: staff },
      payload: JSON.stringify({ q: await phoneOf(user.userId), sort: 'oldest' }),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(exported.headers['content-disposition'])).toContain("filename*=UTF-8''");
    expect([...exported.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = exported.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '委托编号,服务,标题,状态,金额（元）,订单号,联系人,联系电话,账号手机,预计完成日期,客户期望日期,提交时间',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${evaluation.commissionNo},科技成果评价,`);
    expect(lines[1]).toContain(',待报价,');
    expect(lines[1]).toContain(',赵=老师,13700001111,');
    expect(lines[2]).toContain(`${search.commissionNo},科技查新,`);

    const audited = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'commission.export')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audited).toMatchObject({ outcome: 'ok', username: 'fulfilmentc' });
    expect(audited.detail).toMatchObject({ rows: 2, total: 2 });

    // Support may not export the queue: refused, audited, no file.
    const support = await staffLogin('support');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/admin/commission/export',
      headers: { 'content-type': 'application/json', cookie: support },
      payload: '{}',
    });
    expect(refused.json().code).toBe(ErrorCode.FORBIDDEN);
    const refusal = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'commission.export')
      .where('username', '=', 'supportc')
      .executeTakeFirstOrThrow();
    expect(refusal.outcome).toBe('refused');
  });
});
