import type { Commission, ConsoleCommission, StuckNotice } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { describe, expect, it } from 'vitest';
import { NOTICE_LEASE_MS } from '../../src/modules/commission/commission.notices.ts';
import { MailError, type MailMessage, type SandboxMailProvider } from '../../src/providers/mail/index.ts';
import { buildDocx, buildPdf } from '../check/fixtures.ts';
import { call, newUser } from '../orders/orders-helper.ts';
import {
  contact,
  DAY_MS,
  paidCommission,
  runCommissionJobs,
  staffCall,
  staffLogin,
  t,
  techEvaluationForm,
  uploadAttachment,
  uploadReport,
  useCommissionTestApp,
} from './commission-helper.ts';

// The e-mail notices of the commissioned services (quote ready to pay, report done) through the
// mail sandbox, and the turnaround promise: the due date recorded at payment from the goods, shown on
// the client's timeline, the operators' queue sorted by it with 已超期 flagged (docs/api/commission.md).

useCommissionTestApp();

const outbox = () => t.rt.mail as SandboxMailProvider;
const mailsTo = (to: string) => outbox().sent.filter((m) => m.to === to);
/** The message body as the recipient reads it (quoted-printable / base64 decoded by hand is brittle). */
const bodyOf = (raw: Buffer) => {
  const text = raw.toString('utf8');
  const [, body = ''] = text.split(/\r?\n\r?\n/);
  return /base64/i.test(text.split(/\r?\n\r?\n/)[0]!)
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body;
};

function docDelivery(email: string | undefined, items = ['10.1000/xyz123', 'https://doi.org/10.1000/abc']) {
  return { service: 'doc_delivery', items, personalUse: true, ...contact, ...(email ? { email } : {}) };
}

async function deliver(staff: string, commissionId: string) {
  const report = await uploadReport(staff, commissionId, {
    bytes: await buildPdf([{ text: '文献全文。' }]),
    name: '文献全文.pdf',
  });
  expect(report.code).toBe(0);
  return staffCall<ConsoleCommission>(staff, '/complete', { commissionId });
}

/** The mail jobs waiting for their back-off made due, and run. */
async function runMailJobsNow() {
  await t.db
    .updateTable('jobs')
    .set({ run_at: new Date(0) })
    .where('name', '=', 'commission.mail')
    .execute();
  await runCommissionJobs();
}

/** A console call of the 任务 screen (admin). */
async function adminCall<T = unknown>(cookie: string, path: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${path}`,
    headers: { 'content-type': 'application/json', cookie },
    payload: JSON.stringify(body),
  });
  return res.json() as { code: number; message: string; data: T };
}

/** China-time date of the test clock, plus `days`. */
const chinaDay = (days = 0) =>
  new Date(t.clock.now().getTime() + 8 * 3600_000 + days * DAY_MS).toISOString().slice(0, 10);

describe('the done e-mail', () => {
  it('goes once to the form’s e-mail, in Chinese, with the order number and where to download', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, docDelivery('wang.laoshi@example.edu.cn'));
    const staff = await staffLogin('fulfilment');
    expect((await deliver(staff, c.commissionId)).data.status).toBe('done');
    expect(mailsTo('wang.laoshi@example.edu.cn')).toHaveLength(0);

    await runCommissionJobs();
    const mails = mailsTo('wang.laoshi@example.edu.cn');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`【科研服务网】您委托的文献下载服务已完成（订单号 ${c.orderNo}）`);
    const text = bodyOf(mails[0]!.raw);
    expect(text).toContain(`订单号：${c.orderNo}`);
    expect(text).toContain(`委托编号：${c.commissionNo}`);
    expect(text).toContain('文献全文已出具');
    expect(text).toContain('http://127.0.0.1:3000/user/order/commission');
    // The operators see that it went out.
    const seen = await staffCall<{ notices: unknown[] }>(staff, '/detail', { commissionId: c.commissionId });
    expect(seen.data.notices).toEqual([
      expect.objectContaining({
        kindText: '办理完成邮件',
        email: 'wang.laoshi@example.edu.cn',
        status: 'sent',
        statusText: '已发送',
      }),
    ]);

    // A second worker run, or the same job queued again, sends nothing more.
    const { enqueue } = await import('../../src/jobs/queue.ts');
    const notice = await t.db
      .selectFrom('commission_notices')
      .selectAll()
      .where('commission_id', '=', c.commissionId)
      .executeTakeFirstOrThrow();
    expect(notice).toMatchObject({ kind: 'done', status: 'sent', attempts: 1 });
    await enqueue(t.db, 'commission.mail', { noticeId: notice.id });
    await runCommissionJobs();
    expect(mailsTo('wang.laoshi@example.edu.cn')).toHaveLength(1);
  });

  it('is retried while the mail server refuses, then sent once', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, docDelivery('li.lei@example.com'));
    const rt = t.root.services.commission;
    const real = rt.mail;
    let refused = 0;
    rt.mail = {
      kind: 'smtp',
      async send(_message: MailMessage) {
        refused++;
        throw new MailError('connection refused', 'ECONNECTION');
      },
    };
    try {
      const staff = await staffLogin('fulfilment');
      await deliver(staff, c.commissionId);
      await runCommissionJobs();
      expect(refused).toBe(1);
      const waiting = await t.db
        .selectFrom('commission_notices')
        .selectAll()
        .where('commission_id', '=', c.commissionId)
        .executeTakeFirstOrThrow();
      expect(waiting).toMatchObject({ status: 'pending', last_error: 'ECONNECTION', attempts: 1 });
    } finally {
      rt.mail = real;
    }
    // The job waits for its back-off; once due again, the server is back and the mail goes out.
    await t.db
      .updateTable('jobs')
      .set({ run_at: new Date(0) })
      .where('name', '=', 'commission.mail')
      .where('status', '=', 'queued')
      .execute();
    await runCommissionJobs();
    expect(mailsTo('li.lei@example.com')).toHaveLength(1);
    await runCommissionJobs();
    expect(mailsTo('li.lei@example.com')).toHaveLength(1);
  });

  it('is sent at least once when the worker died while sending: after the claim’s lease, with the same Message-ID', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, docDelivery('zhang.san@example.com'));
    const quiet = await paidCommission(user.token, docDelivery(undefined, ['10.1000/quiet']));
    const staff = await staffLogin('fulfilment');
    await deliver(staff, c.commissionId);
    await deliver(staff, quiet.commissionId);
    const notice = () =>
      t.db
        .selectFrom('commission_notices')
        .selectAll()
        .where('commission_id', '=', c.commissionId)
        .executeTakeFirstOrThrow();
    // As a worker does when it claims the notice (a lease of NOTICE_LEASE_MS), and then is killed
    // before it could record the outcome.
    const claimedAt = t.clock.now();
    await t.db
      .updateTable('commission_notices')
      .set({ status: 'sending', attempts: 1, claimed_until: new Date(claimedAt.getTime() + NOTICE_LEASE_MS) })
      .where('commission_id', '=', c.commissionId)
      .execute();
    const before = outbox().sent.length;

    // While the lease runs the job does not pretend: nothing is sent and the job is retried, not done.
    await runCommissionJobs();
    expect(mailsTo('zhang.san@example.com')).toHaveLength(0);
    const waiting = await t.db
      .selectFrom('jobs')
      .select(['status', 'last_error'])
      .where('name', '=', 'commission.mail')
      .where(sql<boolean>`payload->>'noticeId' = ${(await notice()).id}`)
      .executeTakeFirstOrThrow();
    expect(waiting.status).toBe('queued');
    expect((await notice()).status).toBe('sending');

    // The lease runs out with nobody to finish it: the console's 任务 screen shows the notice as stuck.
    t.clock.advance(NOTICE_LEASE_MS + 60_000);
    const admin = await staffLogin('admin');
    const stuck = await adminCall<StuckNotice[]>(admin, '/admin/jobs/stuckNotices', {});
    expect(stuck.data).toEqual([
      expect.objectContaining({
        noticeId: (await notice()).id,
        commissionNo: c.commissionNo,
        kindText: '办理完成邮件',
        status: 'sending',
        attempts: 1,
      }),
    ]);

    // The retried job claims it again and sends it, once, with the notice's stable Message-ID: a
    // resend of a mail that did leave before the crash is recognisable as the same message.
    await runMailJobsNow();
    const mails = mailsTo('zhang.san@example.com');
    expect(mails).toHaveLength(1);
    const sent = await notice();
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sent.message_id).toBe(`<commission-notice.${sent.id}@127.0.0.1>`);
    expect(mails[0]!.raw.toString('utf8').replace(/\r?\n[ \t]+/g, ' ')).toMatch(
      new RegExp(`^Message-ID: <commission-notice\\.${sent.id}@127\\.0\\.0\\.1>`, 'im'),
    );
    expect((await adminCall<StuckNotice[]>(admin, '/admin/jobs/stuckNotices', {})).data).toEqual([]);
    await runCommissionJobs();
    expect(mailsTo('zhang.san@example.com')).toHaveLength(1);
    expect(outbox().sent.length).toBe(before + 1);
    // No address on the form: no notice at all.
    const none = await t.db
      .selectFrom('commission_notices')
      .select('id')
      .where('commission_id', '=', quiet.commissionId)
      .execute();
    expect(none).toEqual([]);
  });

  it('a stuck notice is sent again from the console (重新发送), only while it is still stuck', async () => {
    const user = await newUser(t);
    const c = await paidCommission(user.token, docDelivery('resend@example.com'));
    const staff = await staffLogin('fulfilment');
    const rt = t.root.services.commission;
    const real = rt.mail;
    rt.mail = {
      kind: 'smtp',
      async send(_message: MailMessage) {
        throw new MailError('connection refused', 'ECONNECTION');
      },
    };
    try {
      await deliver(staff, c.commissionId);
      // Every attempt refused: the notice ends failed.
      for (let i = 0; i < 8; i++) {
        await runMailJobsNow();
      }
    } finally {
      rt.mail = real;
    }
    const admin = await staffLogin('admin');
    const stuck = (await adminCall<StuckNotice[]>(admin, '/admin/jobs/stuckNotices', {})).data.filter(
      (n) => n.commissionNo === c.commissionNo,
    );
    expect(stuck).toEqual([expect.objectContaining({ status: 'failed', lastError: 'ECONNECTION' })]);
    const resend = await adminCall(admin, '/admin/jobs/noticeResend', { noticeId: stuck[0]!.noticeId });
    expect(resend.code).toBe(0);
    expect((await adminCall(admin, '/admin/jobs/noticeResend', { noticeId: stuck[0]!.noticeId })).code).toBe(
      1011,
    );
    await runCommissionJobs();
    expect(mailsTo('resend@example.com')).toHaveLength(1);
  });
});

describe('the quote e-mail', () => {
  it('tells the client the quoted amount and where to pay', async () => {
    const user = await newUser(t);
    const material = await uploadAttachment(user.token, {
      bytes: buildDocx([{ text: '成果技术报告。' }]),
      name: '技术报告.docx',
    });
    const submitted = await call<Commission>(
      t,
      '/commission/submit',
      techEvaluationForm([material.data.fileId], { email: 'li.laoshi@example.edu.cn' }),
      { token: user.token },
    );
    expect(submitted.code).toBe(0);
    const staff = await staffLogin('fulfilment');
    const quoted = await staffCall<ConsoleCommission>(staff, '/quote', {
      commissionId: submitted.data.commissionId,
      amount: 3000,
    });
    expect(quoted.code).toBe(0);
    await runCommissionJobs();
    const [mail, ...more] = mailsTo('li.laoshi@example.edu.cn');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(
      `【科研服务网】您委托的科技成果评价已报价，请支付（订单号 ${quoted.data.orderNo}）`,
    );
    const text = bodyOf(mail!.raw);
    expect(text).toContain('¥3,000.00');
    expect(text).toContain('http://127.0.0.1:3000/user/order/commission');
  });
});

describe('turnaround promises', () => {
  it('the estimate states the goods’ days, and the descriptions promise no number of their own', async () => {
    const estimate = await call<{ turnaroundDays: number | null; dueDate: string | null }>(
      t,
      '/commission/estimate',
      { service: 'search_report', papers: 2, databases: 3, urgency: 'urgent' },
    );
    expect(estimate.data).toMatchObject({ turnaroundDays: 3, dueDate: chinaDay(3) });
    const quote = await call<{ turnaroundDays: number | null; dueDate: string | null }>(
      t,
      '/commission/estimate',
      { service: 'tech_evaluation' },
    );
    expect(quote.data).toMatchObject({ turnaroundDays: null, dueDate: null });
    const goods = await t.db
      .selectFrom('goods')
      .select(['id', 'description', 'turnaround_days'])
      .where('service_type', 'in', ['search_report', 'tech_search', 'doc_delivery'])
      .where('id', 'not like', 'test_%')
      .execute();
    expect(goods.length).toBeGreaterThan(0);
    for (const g of goods) {
      expect(g.turnaround_days, g.id).toBeGreaterThan(0);
      expect(g.description, g.id).not.toMatch(/\d+\s*个?(工作)?日/);
    }
  });

  it('records the due date at payment, shows it on the timeline, and the queue sorts and flags by it', async () => {
    const user = await newUser(t);
    const first = await paidCommission(user.token, docDelivery(undefined, ['10.1000/first']));
    const detail = await call<Commission>(
      t,
      '/commission/detail',
      { commissionId: first.commissionId },
      { token: user.token },
    );
    expect(detail.data).toMatchObject({ dueDate: chinaDay(5), overdue: false });
    expect(detail.data.timeline.at(-1)).toMatchObject({
      label: '已完成',
      state: 'waiting',
      note: `预计完成日期 ${chinaDay(5)}`,
    });

    // Two days later a second one is paid: due later, listed after the first.
    t.clock.advance(2 * DAY_MS);
    const second = await paidCommission(user.token, docDelivery(undefined, ['10.1000/second']));
    let staff = await staffLogin('fulfilment');
    const queue = async () => {
      const res = await staffCall<{ list: ConsoleCommission[] }>(staff, '/list', {
        status: 'processing',
        service: 'doc_delivery',
        pageSize: 50,
      });
      expect(res).toMatchObject({ code: 0 });
      return res.data.list;
    };
    const ids = (await queue()).map((c) => c.commissionId);
    expect(ids.indexOf(first.commissionId)).toBeLessThan(ids.indexOf(second.commissionId));
    expect((await queue()).find((c) => c.commissionId === first.commissionId)?.overdue).toBe(false);

    // Past the first one's due date: 已超期, the second not yet.
    t.clock.advance(4 * DAY_MS);
    staff = await staffLogin('fulfilment');
    const late = await queue();
    expect(late.find((c) => c.commissionId === first.commissionId)?.overdue).toBe(true);
    expect(late.find((c) => c.commissionId === second.commissionId)?.overdue).toBe(false);
    // Delivered, it is no longer overdue.
    const done = await deliver(staff, first.commissionId);
    expect(done.data).toMatchObject({ status: 'done', overdue: false, dueDate: detail.data.dueDate });
  });
});
