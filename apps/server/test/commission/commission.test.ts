import { randomBytes } from 'node:crypto';
import { type Commission, type ConsoleCommission, ErrorCode, type StaffRoleName } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { enqueue } from '../../src/jobs/queue.ts';
import { commissionJobDefinitions } from '../../src/modules/commission/commission.jobs.ts';
import { SWEEP_JOB } from '../../src/modules/commission/commission.service.ts';
import { createStaffService } from '../../src/modules/console/staff.service.ts';
import { totpCode } from '../../src/modules/console/totp.ts';
import { sendCode } from '../accounts/accounts-helper.ts';
import { buildDocx, buildFakeExe, buildPdf } from '../check/fixtures.ts';
import {
  buildOrdersApp,
  call,
  devPay,
  type Envelope,
  MINUTE,
  newUser,
  type OrdersTestApp,
  SECOND,
  startPay,
} from '../orders/orders-helper.ts';

// The commissioned services (docs/api/commission.md): forms refused in Chinese with nothing kept,
// documents only, prices from the goods, the shared payment, operators' quote / report / done with
// roles and audit, the done SMS, and the report downloaded by its owner only.

let t: OrdersTestApp;
const staffAccounts = new Map<StaffRoleName, { username: string; password: string; totpSecret: string }>();
const DAY_MS = 24 * 3600 * SECOND;

beforeAll(async () => {
  t = await buildOrdersApp();
  const staff = createStaffService({ db: t.db, scryptCost: 10, now: t.clock.now });
  for (const role of ['fulfilment', 'support'] as const)
    staffAccounts.set(role, await staff.create({ username: `${role}c`, role }));
});
afterAll(async () => {
  await t.close();
});

function futureDate(days = 10): string {
  return new Date(t.clock.now().getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

async function staffLogin(role: StaffRoleName): Promise<string> {
  t.clock.advance(31 * SECOND);
  const account = staffAccounts.get(role)!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      username: account.username,
      password: account.password,
      totpCode: totpCode(account.totpSecret, t.clock.now()),
    }),
  });
  expect(res.json().code).toBe(0);
  return String(res.headers['set-cookie']).split(';')[0]!;
}

async function staffCall<T>(cookie: string, path: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1/admin/commission${path}`,
    headers: { 'content-type': 'application/json', cookie },
    payload: JSON.stringify(body),
  });
  return res.json() as Envelope<T>;
}

function multipart(fields: Record<string, string>, file: { bytes: Uint8Array; name: string } | null) {
  const boundary = `----kyfw${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function uploadAttachment(token: string, file: { bytes: Uint8Array; name: string }) {
  const body = multipart({}, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/commission/uploadFile',
    headers: { terminal: 'PC', token, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as Envelope<{ fileId: string; fileName: string; bytes: number }>;
}

async function uploadReport(cookie: string, commissionId: string, file: { bytes: Uint8Array; name: string }) {
  const body = multipart({ commissionId }, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/admin/commission/uploadReport',
    headers: { cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
  return res.json() as Envelope<ConsoleCommission>;
}

function download(token: string, commissionId: string, fileId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/kyfw/web/v1/commission/download',
    headers: { terminal: 'PC', token, 'content-type': 'application/json' },
    payload: JSON.stringify({ commissionId, fileId }),
  });
}

async function runCommissionJobs() {
  const worker = createWorker({ db: t.db, definitions: commissionJobDefinitions, services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

async function counts() {
  const [c, f, o] = await Promise.all([
    t.db
      .selectFrom('commissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('commission_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { commissions: Number(c.n), files: Number(f.n), orders: Number(o.n) };
}

const contact = { contactName: '王老师', contactPhone: '13912345678', unit: '某大学图书馆' };

function techSearchForm(extra: Record<string, unknown> = {}) {
  return {
    service: 'tech_search',
    nameZh: '基于深度学习的农田土壤墒情预测方法',
    nameEn: 'Soil moisture prediction for farmland based on deep learning',
    purpose: '立项',
    scope: 'domestic',
    points: ['融合气象与遥感数据的墒情预测模型', ''],
    summary:
      '本项目针对农田土壤墒情监测成本高、时效差的问题，提出一种融合气象站观测、遥感影像与土壤传感器数据的深度学习预测方法，在三个省份的试验田进行了验证。',
    keywordsZh: ['土壤墒情', '深度学习', '遥感'],
    keywordsEn: ['soil moisture', 'deep learning', 'remote sensing'],
    urgency: 'standard',
    deadline: futureDate(),
    delivery: 'print',
    copies: 2,
    ...contact,
    ...extra,
  };
}

/** A 查新 with one attachment, submitted by `token`. */
async function submitTechSearch(token: string, fileName: string) {
  const attachment = await uploadAttachment(token, {
    bytes: buildDocx([{ text: `${fileName}：内容。` }]),
    name: fileName,
  });
  expect(attachment.code).toBe(0);
  return call<Commission>(t, '/commission/submit', techSearchForm({ fileIds: [attachment.data.fileId] }), {
    token,
  });
}

async function phoneOf(userId: string): Promise<string> {
  const row = await t.db
    .selectFrom('users')
    .select('phone_number')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.phone_number!;
}

describe('estimate', () => {
  it('prices a search report per paper × database, a 查新 by scope and urgency, and leaves an evaluation to a quote', async () => {
    const { token } = await newUser(t);
    const report = await call<{ amount: string; explain: string; pricing: string }>(
      t,
      '/commission/estimate',
      { service: 'search_report', papers: 3, databases: 2, urgency: 'standard' },
      { token },
    );
    expect(report.data).toMatchObject({ pricing: 'per_item', amount: '90.00' });
    expect(report.data.explain).toContain('3 篇 × 2 个数据库');
    const novelty = await call<{ amount: string }>(
      t,
      '/commission/estimate',
      { service: 'tech_search', scope: 'global', urgency: 'urgent' },
      { token },
    );
    expect(novelty.data.amount).toBe('2200.00');
    const evaluation = await call<{ amount: string | null; pricing: string }>(
      t,
      '/commission/estimate',
      { service: 'tech_evaluation' },
      { token },
    );
    expect(evaluation.data).toMatchObject({ pricing: 'quote', amount: null });
  });
});

describe('bad input', () => {
  it('refuses a form with a Chinese message (1001) and keeps nothing', async () => {
    const { token } = await newUser(t);
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...techSearchForm(), summary: '太短' }, '技术要点不少于50个字'],
      [{ ...techSearchForm(), keywordsEn: ['one'] }, '请至少填写3个英文检索词'],
      [{ ...techSearchForm(), contactPhone: '12345' }, '请输入正确的手机号码'],
      [{ ...techSearchForm(), deadline: '2000-01-01' }, '期望完成日期须晚于今天'],
      [
        {
          service: 'search_report',
          papers: [{ title: '论文一', authors: '张三' }],
          databases: [],
          citations: 'none',
          purpose: '职称评审',
          urgency: 'standard',
          deadline: futureDate(),
          delivery: 'pdf',
          ...contact,
        },
        '请至少选择一个检索数据库',
      ],
      [
        { service: 'doc_delivery', items: ['10.1000/xyz123'], ...contact },
        '请确认所申请文献仅用于个人学习研究',
      ],
      [
        {
          service: 'tech_evaluation',
          name: '新型节水灌溉装置',
          type: '应用技术成果',
          units: '某农业大学',
          form: '会议评价',
          summary: '一'.repeat(60),
          urgency: 'standard',
          deadline: futureDate(),
          delivery: 'pdf',
          fileIds: [],
          ...contact,
        },
        '请上传评价材料（技术报告、查新报告、检测报告等）',
      ],
      [{ service: 'unknown' }, '请选择委托的服务'],
    ];
    for (const [form, message] of cases) {
      const answer = await call(t, '/commission/submit', form, { token });
      expect({ code: answer.code, message: answer.message }).toEqual({ code: ErrorCode.VALIDATION, message });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a file that is not a document, and another user’s attachment', async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const before = await counts();
    const fake = await uploadAttachment(owner.token, { bytes: buildFakeExe(), name: '材料.docx' });
    expect(fake.code).toBe(ErrorCode.CHECK_FILE_UNSUPPORTED);
    const exe = await uploadAttachment(owner.token, { bytes: buildFakeExe(), name: 'setup.exe' });
    expect(exe).toMatchObject({
      code: ErrorCode.CHECK_FILE_UNSUPPORTED,
      message: '只能上传 PDF、Word（.doc/.docx）或 TXT 文档',
    });
    expect(await counts()).toEqual(before);

    const mine = await uploadAttachment(owner.token, {
      bytes: buildDocx([{ text: '项目技术报告：试验方案与结果。' }]),
      name: '技术报告.docx',
    });
    expect(mine.code).toBe(0);
    const stolen = await call(t, '/commission/submit', techSearchForm({ fileIds: [mine.data.fileId] }), {
      token: other.token,
    });
    expect(stolen).toMatchObject({ code: ErrorCode.VALIDATION, message: '附件不存在或已失效，请重新上传' });
    expect((await counts()).commissions).toBe(before.commissions);

    // An attachment never sent with a form is deleted a day later (the daily sweep).
    const key = (
      await t.db
        .selectFrom('commission_files')
        .select('storage_key')
        .where('id', '=', mine.data.fileId)
        .executeTakeFirstOrThrow()
    ).storage_key;
    t.clock.advance(25 * 3600 * SECOND);
    await enqueue(t.db, SWEEP_JOB, {});
    await runCommissionJobs();
    expect(
      await t.db.selectFrom('commission_files').selectAll().where('id', '=', mine.data.fileId).execute(),
    ).toEqual([]);
    expect(await t.root.services.check.storage.exists(key)).toBe(false);
  });
});

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
      {
        service: 'tech_evaluation',
        name: '新型节水灌溉装置',
        type: '应用技术成果',
        units: '某农业大学；某水利研究所',
        form: '会议评价',
        summary:
          '本成果研制了一种基于土壤墒情反馈的滴灌控制装置，在华北平原示范推广两千亩，节水约百分之三十，运行稳定，成本较低，便于推广。',
        urgency: 'standard',
        deadline: futureDate(30),
        delivery: 'pdf',
        fileIds: [material.data.fileId],
        ...contact,
      },
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
