import { createHash } from 'node:crypto';
import { ErrorCode } from '@kyfw/contracts';
import { checkText, openIndex } from '@kyfw/simcheck';
import { extractDocument } from '@kyfw/simcheck/extract';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { checkRunJob } from '../../src/modules/check/check.jobs.ts';
import { formatPercent } from '../../src/modules/check/report/report-model.ts';
import { devPay, orderRow, setFaults, startPay } from '../orders/orders-helper.ts';
import {
  buildCheckApp,
  type CheckStatus,
  type CheckTestApp,
  call,
  checkStatus,
  download,
  getReport,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  storedCheckFiles,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// upload -> price -> pay in the sandbox (/__dev/pay) -> the check job -> the report (figures equal
// the engine's, the planted copy found with its source) -> every download -> list -> delete.
// Each case stands alone (its own user and order); the read-only ones share one finished check.

type User = { token: string; userId: string };
let t: CheckTestApp;
const source = libraryText(101, 1500);
const planted = source.slice(300, 480).replace(/\n/g, '');
const thesis = buildThesis({ seed: 21, chars: 12_000, planted: [planted] });
let docxBytes: Uint8Array;
/** A paid check run to its report (upload, pay, the check job): the read-only cases look at it. */
let finished: { user: User; orderId: string; orderNo: string };

async function finishedCheck(user: User): Promise<{ user: User; orderId: string; orderNo: string }> {
  const up = await upload(t, user.token, { bytes: docxBytes, name: '城市交通治理研究.docx' });
  expect(up.code).toBe(0);
  await payCheckOrder(t, user.token, up.data.orderId);
  expect(await runCheckJobs(t)).toHaveLength(1);
  return { user, orderId: up.data.orderId, orderNo: up.data.orderNo };
}

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    {
      id: 'lib:planted',
      title: '土壤微生物群落结构研究',
      authors: ['李四', '王五'],
      year: 2021,
      source: '土壤学报',
      text: source,
    },
    { id: 'lib:other', title: '作物产量模型', text: libraryText(102, 1500) },
  ]);
  docxBytes = buildDocx(thesis.blocks);
  finished = await finishedCheck(await newUser(t));
});

afterAll(async () => {
  await t.close();
});

describe('paid check', () => {
  it('upload shows the price; nothing runs before payment', async () => {
    const alice = await newUser(t);
    const res = await upload(t, alice.token, { bytes: docxBytes, name: '城市交通治理研究.docx' });
    expect(res.code).toBe(0);
    expect(res.data.free).toBe(false);
    expect(res.data.amountFen).toBe(Math.ceil(res.data.chars / 1000) * 200);
    const { orderId } = res.data;
    const status = await checkStatus(t, alice.token, orderId);
    expect(status.data).toMatchObject({ checkStatus: 'pending', progress: 0, reportReady: false });
    expect(await runCheckJobsCount()).toBe(0);
    const early = await getReport(t, alice.token, orderId);
    expect(early).toMatchObject({ code: ErrorCode.CHECK_NOT_READY, message: '订单尚未支付，支付后开始检测' });
    // A paid order cannot be started as a free check.
    expect((await call(t, '/freeCheck/payFee', { orderId }, { token: alice.token })).code).toBe(
      ErrorCode.CHECK_FREE_UNAVAILABLE,
    );
  });

  it('paying queues the check; progress is visible while it runs; the report follows', async () => {
    const alice = await newUser(t);
    const up = await upload(t, alice.token, { bytes: docxBytes, name: '城市交通治理研究.docx' });
    const { orderId, orderNo } = up.data;
    await payCheckOrder(t, alice.token, orderId);
    const queued = await call<CheckStatus & { payStatus: number }>(
      t,
      '/freeCheck/orderPayStatus',
      { orderId },
      { token: alice.token },
    );
    expect(queued.data).toMatchObject({ payStatus: 1, checkStatus: 'queued', orderNo });

    const seen: { status: string; stage: string | null; progress: number }[] = [];
    const worker = createWorker({ db: t.db, definitions: [checkRunJob], services: t.root.services });
    const run = worker.tick();
    let done = false;
    void run.then(() => {
      done = true;
    });
    // Asks as often as it can (no timer): each answer waits its turn with the job's own writes.
    while (!done) {
      const s = await call<CheckStatus & { payStatus: number }>(
        t,
        '/freeCheck/orderPayStatus',
        { orderId },
        { token: alice.token },
      );
      seen.push({ status: s.data.checkStatus, stage: s.data.stage, progress: s.data.progress });
    }
    await worker.stop();
    const running = seen.filter((s) => s.status === 'running');
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((s) => s.progress > 0 && s.progress < 100)).toBe(true);
    expect(new Set(running.map((s) => s.stage))).toContain('reporting');
    // Progress never goes backwards.
    const values = seen.map((s) => s.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));

    const final = await call<CheckStatus & { payStatus: number; status: string }>(
      t,
      '/freeCheck/orderPayStatus',
      { orderId },
      { token: alice.token },
    );
    expect(final.data).toMatchObject({
      payStatus: 1,
      status: 'done',
      checkStatus: 'done',
      progress: 100,
      reportReady: true,
    });
  });

  it('the report: figures equal the engine, the planted copy found with its source and passage', async () => {
    const { user: alice, orderId } = finished;
    const res = await getReport(t, alice.token, orderId);
    expect(res.code).toBe(0);
    const report = res.data;

    // The engine on the same text and library.
    const doc = await extractDocument(docxBytes, { fileName: 'x.docx' });
    expect(report.text).toBe(doc.text);
    const index = await openIndex(t.check.config.indexDir);
    const engine = await checkText(index, doc.text, { headings: doc.headings });
    await index.close();
    // The engine counts every character; the report counts 字数 (whitespace not counted), in the
    // text and in the engine's matches, and derives the ratios from those counts.
    const nonWhitespace = (s: string) => [...s].filter((c) => !/\s/u.test(c)).length;
    const inMatches = (kinds: string[]) =>
      engine.matches
        .filter((m) => kinds.includes(m.kind))
        .reduce((n, m) => n + nonWhitespace([...doc.text].slice(m.start, m.end).join('')), 0);
    const totalChars = nonWhitespace(doc.text);
    const copiedChars = inMatches(['verbatim', 'paraphrase', 'quoted']);
    const quotedChars = inMatches(['quoted']);
    expect(copiedChars).toBeGreaterThan(0);
    expect(report.figures).toMatchObject({
      ratio: copiedChars / totalChars,
      ratioExcludingQuotes: (copiedChars - quotedChars) / totalChars,
      maxSingleSourceRatio: copiedChars / totalChars,
      copiedChars,
      totalChars,
      quotedChars,
      sourceCount: 1,
    });
    expect(report.figures.ratio).toBeGreaterThan(0);
    expect(report.sections.map((s) => s.title)).toEqual(engine.sections.map((s) => s.title));
    expect(report.sections.some((s) => s.title === '第2章 文献综述' && s.copiedChars > 0)).toBe(true);

    expect(report.sources).toHaveLength(1);
    expect(report.sources[0]).toMatchObject({
      no: 1,
      id: 'lib:planted',
      title: '土壤微生物群落结构研究',
      authors: ['李四', '王五'],
      year: 2021,
      source: '土壤学报',
      share: 1,
    });
    const start = report.text.indexOf(planted);
    const covered = report.matches.filter((m) => m.start < start + planted.length && m.end > start);
    expect(covered.length).toBeGreaterThan(0);
    expect(covered.every((m) => m.kind === 'verbatim' && m.sourceNo === 1)).toBe(true);
    const copiedInPlanted = covered.reduce(
      (n, m) => n + Math.min(m.end, start + planted.length) - Math.max(m.start, start),
      0,
    );
    expect(copiedInPlanted).toBeGreaterThanOrEqual(planted.length - 2);
    // The side-by-side source passage is the library text at the match.
    for (const m of covered) {
      expect(source).toContain(m.sourcePassage.text);
      // The planted copy lost the source's line breaks; the engine ignores whitespace.
      expect(m.sourcePassage.text.replace(/\s/g, '')).toBe(report.text.slice(m.start, m.end));
    }
    expect(report.reportNo).toMatch(/^BG\d{8}[0-9A-Z]{8}$/);
    expect(report.verificationCode).toMatch(/^[0-9A-Z]{8}$/);
    expect(report.verifyUrl).toBe(
      `http://127.0.0.1:3000/check/verify?reportNo=${report.reportNo}&code=${report.verificationCode}`,
    );
    expect(report.notes[0]).toMatch(/仅供参考/);
  });

  it('downloads: PDF report, marked-text PDF, standalone HTML and the zip of all three', async () => {
    const { user: alice, orderId } = finished;
    const report = (await getReport(t, alice.token, orderId)).data;
    const rate = formatPercent(report.figures.ratio);

    const pdf = await download(t, alice.token, orderId, 'pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="report-pdf.pdf"; filename*=UTF-8''${encodeURIComponent('城市交通治理研究-检测报告.pdf')}`,
    );
    const pdfContent = await pdfText(pdf.rawPayload);
    for (const expected of [
      '论文相似性检测报告',
      '总文字复制比',
      rate,
      '去除引用文献复制比',
      '单篇最大文字复制比',
      '重复字数',
      '总字数',
      report.reportNo,
      report.verificationCode,
      '土壤微生物群落结构研究',
      '第2章 文献综述',
    ]) {
      expect(pdfContent.text).toContain(expected);
    }
    expect(pdfContent.text.replace(/\s/g, '')).toContain(planted.slice(0, 30));

    const marked = await download(t, alice.token, orderId, 'marked');
    expect(marked.headers['content-disposition']).toContain(
      encodeURIComponent('城市交通治理研究-全文标明引文.pdf'),
    );
    const markedText = await pdfText(marked.rawPayload);
    expect(markedText.text).toContain('全文标明引文');
    expect(markedText.text).toContain('[1]');

    const html = await download(t, alice.token, orderId, 'html');
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    // Issue 22: a policy like the other downloads; the report's one inline script runs by its hash.
    const csp = String(html.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const inline = [...html.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);
    expect(html.body).toContain(rate);
    expect(html.body).toContain('class="k-verbatim"');
    expect(html.body).not.toMatch(/<(link|script)[^>]+(src|href)=/);

    const zip = await download(t, alice.token, orderId, 'zip');
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      [
        '城市交通治理研究-全文标明引文.pdf',
        '城市交通治理研究-检测报告.html',
        '城市交通治理研究-检测报告.pdf',
      ].sort(),
    );
    expect(Buffer.from(files['城市交通治理研究-检测报告.pdf']!).equals(pdf.rawPayload)).toBe(true);

    const bad = await call(
      t,
      '/freeCheck/downloadReport',
      { orderId, format: 'docx' },
      { token: alice.token },
    );
    expect(bad.code).toBe(ErrorCode.VALIDATION);
  });

  it("another user's order and report are invisible", async () => {
    const { orderId } = finished;
    const bob = await newUser(t);
    for (const path of [
      '/freeCheck/report',
      '/freeCheck/checkStatus',
      '/freeCheck/deleteOrder',
      '/freeCheck/retryCheck',
    ]) {
      const res = await call(t, path, { orderId }, { token: bob.token });
      expect(res.code, path).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    }
    expect((await call(t, '/freeCheck/orderPayStatus', { orderId }, { token: bob.token })).code).toBe(
      ErrorCode.RESOURCE_NOT_FOUND,
    );
    const dl = await download(t, bob.token, orderId, 'pdf');
    expect(dl.json()).toMatchObject({ code: ErrorCode.RESOURCE_NOT_FOUND });
    const list = await call<{ total: number }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 10 },
      { token: bob.token },
    );
    expect(list.data.total).toBe(0);
    expect((await call(t, '/freeCheck/report', { orderId }, {})).code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('the list shows status, rate and actions; delete hides it and removes the files, money records stay', async () => {
    const { user: alice, orderId, orderNo } = await finishedCheck(await newUser(t));
    t.clock.advance(60_000); // the test clock stands still otherwise; the list is newest first
    const pending = await upload(
      t,
      alice.token,
      { bytes: docxBytes, name: '第二篇.docx' },
      { title: '第二篇' },
    );
    const list = await call<{ total: number; list: Record<string, unknown>[] }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 10 },
      { token: alice.token },
    );
    expect(list.data.total).toBe(2);
    const report = (await getReport(t, alice.token, orderId)).data;
    expect(list.data.list[0]).toMatchObject({
      orderId: pending.data.orderId,
      checkStatus: 'pending',
      checkStatusText: '待支付',
      ratio: null,
      actions: { view: false, download: false, pay: true, retry: false, delete: true },
    });
    expect(list.data.list[1]).toMatchObject({
      orderId,
      orderNo,
      title: '城市交通治理研究',
      checkStatus: 'done',
      checkStatusText: '已完成',
      ratio: report.figures.ratio,
      reportNo: report.reportNo,
      payStatus: 1,
      actions: { view: true, download: true, pay: false, retry: false, delete: true },
    });

    const before = storedCheckFiles(t).length;
    const historyBefore = await orderHistory(alice.token, orderId);
    const del = await call(t, '/freeCheck/deleteOrder', { orderId }, { token: alice.token });
    expect(del.code).toBe(0);
    expect(storedCheckFiles(t).length).toBe(before - 7); // original, text, report json, 2 PDFs, HTML, zip
    expect((await getReport(t, alice.token, orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    const after = await call<{ total: number }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 10 },
      { token: alice.token },
    );
    expect(after.data.total).toBe(1);
    const order = await t.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('done');
    // The paid order is kept as it was: no cancel, nothing added to its history.
    expect(await orderHistory(alice.token, orderId)).toEqual(historyBefore);
    const payments = await t.db.selectFrom('payments').selectAll().where('order_id', '=', orderId).execute();
    expect(payments).toHaveLength(1);
    // The signed summary stays, so the printed report can still be verified.
    const verify = await call(t, '/freeCheck/verify', {
      reportNo: report.reportNo,
      code: report.verificationCode,
    });
    expect(verify.code).toBe(0);
  });
});

describe('deleting a check that is still awaiting payment', () => {
  it('cancels its order with the reason; a payment arriving later is refunded, the check stays deleted', async () => {
    const alice = await newUser(t);
    t.clock.advance(60_000);
    const unpaid = await upload(
      t,
      alice.token,
      { bytes: docxBytes, name: '未支付.docx' },
      { title: '未支付' },
    );
    expect(unpaid.code).toBe(0);
    const id = unpaid.data.orderId;
    // The payment dialog was opened (Alipay, then WeChat Pay), then the user changed their mind.
    expect((await startPay(t, alice.token, id, 'ali')).code).toBe(0);
    expect((await startPay(t, alice.token, id, 'wx')).code).toBe(0);

    // WeChat Pay cannot close its QR code right now: nothing is deleted or cancelled, try again.
    await setFaults(t, { channel: 'wx', failApiNext: 1 });
    const refused = await call(t, '/freeCheck/deleteOrder', { orderId: id }, { token: alice.token });
    expect(refused.code).toBe(ErrorCode.PAYMENT_UNAVAILABLE);
    expect((await orderRow(t, id)).status).toBe('pending_payment');
    expect((await checkStatus(t, alice.token, id)).data.checkStatus).toBe('pending');

    const del = await call(t, '/freeCheck/deleteOrder', { orderId: id }, { token: alice.token });
    expect(del).toMatchObject({ code: 0, message: '删除成功' });
    expect((await checkStatus(t, alice.token, id)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);

    // My orders shows it cancelled, and its history says who and why.
    const orders = await call<{
      list: { orderId: string; status: string; statusText: string; canPay: boolean }[];
    }>(t, '/order/list', { page: 1, pageSize: 50 }, { token: alice.token });
    expect(orders.data.list.find((o) => o.orderId === id)).toMatchObject({
      status: 'cancelled',
      statusText: '已取消',
      canPay: false,
    });
    expect((await orderHistory(alice.token, id)).at(-1)).toMatchObject({
      status: 'cancelled',
      reason: '用户删除待支付的查重记录，订单取消',
    });
    const transition = await t.db
      .selectFrom('order_transitions')
      .selectAll()
      .where('order_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(transition).toMatchObject({
      from_status: 'pending_payment',
      to_status: 'cancelled',
      actor: 'user',
    });
    expect(await t.sandbox.findOrder('wx', unpaid.data.orderNo)).toMatchObject({ state: 'CLOSED' });

    // The Alipay code was still in the customer's hands and gets paid: the money goes back.
    expect((await devPay(t, unpaid.data.orderNo, 'ali')).code).toBe(0);
    expect(await t.sandbox.notificationSettled('ali', unpaid.data.orderNo)).toBe('acked');
    const [late] = await t.db.selectFrom('payments').selectAll().where('order_id', '=', id).execute();
    expect(late).toMatchObject({ status: 'late' });
    expect(late!.refunded_fen).toBe(late!.amount_fen);
    expect((await orderRow(t, id)).status).toBe('cancelled');
    // No check was started for it.
    expect(await runCheckJobsCount()).toBe(0);
    const check = await t.db
      .selectFrom('checks')
      .select(['status', 'job_id', 'hidden_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(check).toMatchObject({ status: 'pending', job_id: null });
    expect(check.hidden_at).not.toBeNull();
  });
});

async function orderHistory(token: string, id: string) {
  const detail = await call<{ history: { status: string; reason: string; at: string }[] }>(
    t,
    '/order/detail',
    { orderId: id },
    { token },
  );
  expect(detail.code).toBe(0);
  return detail.data.history;
}

async function runCheckJobsCount(): Promise<number> {
  const worker = createWorker({ db: t.db, definitions: [checkRunJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids.length;
}
