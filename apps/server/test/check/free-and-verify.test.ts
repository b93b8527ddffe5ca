import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSummary } from '../../src/modules/check/signing.ts';
import {
  buildCheckApp,
  type CheckStatus,
  type CheckTestApp,
  call,
  checkStatus,
  download,
  getReport,
  grantFreeCheck,
  newUser,
  runCheckJobs,
  seedLibrary,
  upload,
} from './check-helper.ts';
import { buildDocx, buildThesis, libraryText } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// The free check (the binding entitlement, used exactly once), verification of genuine and forged
// reports, and a check that fails: the user sees why and can try again.

let t: CheckTestApp;
const source = libraryText(301, 1200);
const planted = source.slice(100, 260).replace(/\n/g, '');
const small = buildThesis({ seed: 31, chars: 4000, planted: [planted] });

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [{ id: 'lib:free', title: '田间试验方法', text: source }]);
});

afterAll(async () => {
  await t.close();
});

async function entitlementOf(userId: string) {
  return t.db
    .selectFrom('entitlements')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'free_check')
    .executeTakeFirstOrThrow();
}

describe('free check', () => {
  it('payFee uses the entitlement once, even when called twice at the same time; the check runs', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const first = await upload(t, user.token, { bytes: buildDocx(small.blocks), name: 'free.docx' });
    const second = await upload(t, user.token, { bytes: buildDocx(small.blocks), name: 'free2.docx' });
    expect(first.data.free && second.data.free).toBe(true);

    const [a, b] = await Promise.all([
      call<CheckStatus>(t, '/freeCheck/payFee', { orderId: first.data.orderId }, { token: user.token }),
      call<CheckStatus>(t, '/freeCheck/payFee', { orderId: second.data.orderId }, { token: user.token }),
    ]);
    const results = [a, b].map((r) => r.code).sort();
    expect(results).toEqual([0, ErrorCode.CHECK_FREE_UNAVAILABLE]);
    const winner = a.code === 0 ? first.data.orderId : second.data.orderId;
    const loser = a.code === 0 ? b : a;
    expect(loser.message).toBe('免费查重次数已使用，请重新上传并付费检测');
    const entitlement = await entitlementOf(user.userId);
    expect(entitlement.used_for).toBe(winner);
    expect(entitlement.used_at).not.toBeNull();

    // Calling payFee again on the started check changes nothing.
    const again = await call<CheckStatus>(t, '/freeCheck/payFee', { orderId: winner }, { token: user.token });
    expect(again.data.checkStatus).toBe('queued');

    await runCheckJobs(t);
    const status = await checkStatus(t, user.token, winner);
    expect(status.data).toMatchObject({ checkStatus: 'done', progress: 100, free: true });
    const report = await getReport(t, user.token, winner);
    expect(report.data.sources[0]).toMatchObject({ id: 'lib:free' });
    expect(report.data.orderNo).toMatch(/^JC/);
    // The status endpoint of the payment dialog works for a free check too.
    const pay = await call<CheckStatus & { payStatus: number }>(
      t,
      '/freeCheck/orderPayStatus',
      { orderId: winner },
      { token: user.token },
    );
    expect(pay.data).toMatchObject({ payStatus: 1, progress: 100, checkStatus: 'done' });
  });

  it('without the entitlement there is no free check', async () => {
    const user = await newUser(t);
    const res = await upload(t, user.token, { bytes: buildDocx(small.blocks), name: 'p.docx' });
    expect(res.data.free).toBe(false);
    const payFee = await call(t, '/freeCheck/payFee', { orderId: res.data.orderId }, { token: user.token });
    expect(payFee.code).toBe(ErrorCode.CHECK_FREE_UNAVAILABLE);
  });
});

describe('verification', () => {
  let reportNo: string;
  let code: string;
  let ratio: number;
  let pdfBytes: Buffer;

  beforeAll(async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const up = await upload(
      t,
      user.token,
      { bytes: buildDocx(small.blocks), name: 'v.docx' },
      { author: '欧阳娜娜' },
    );
    await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: user.token });
    await runCheckJobs(t);
    const report = (await getReport(t, user.token, up.data.orderId)).data;
    reportNo = report.reportNo;
    code = report.verificationCode;
    ratio = report.figures.ratio;
    pdfBytes = (await download(t, user.token, up.data.orderId, 'pdf')).rawPayload;
  });

  it('a genuine report: anyone with number and code sees the signed summary, author masked', async () => {
    const res = await call<Record<string, unknown>>(t, '/freeCheck/verify', {
      reportNo,
      code: code.toLowerCase(),
    });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      genuine: true,
      reportNo,
      title: '城市交通治理研究',
      author: '欧***',
      ratio,
      goodsName: '本科毕业论文查重',
    });
    expect(res.data.totalChars).toBeGreaterThan(0);
  });

  it('a wrong code or an unknown number is refused with a clear message', async () => {
    const wrong = await call(t, '/freeCheck/verify', { reportNo, code: 'ABCDEFGH' });
    expect(wrong).toMatchObject({
      code: ErrorCode.REPORT_NOT_GENUINE,
      message: '报告编号或验证码不正确，无法确认报告真伪',
    });
    const unknown = await call(t, '/freeCheck/verify', { reportNo: 'BG20260101AAAAAAAA', code });
    expect(unknown.code).toBe(ErrorCode.REPORT_NOT_GENUINE);
    const empty = await call(t, '/freeCheck/verify', { reportNo: '', code });
    expect(empty).toMatchObject({ code: ErrorCode.VALIDATION, message: '请输入报告编号' });
  });

  it('guessing codes is rate limited per client', async () => {
    const ip = '10.9.9.9';
    const codes: number[] = [];
    for (let i = 0; i < 22; i++)
      codes.push((await call(t, '/freeCheck/verify', { reportNo, code: `WRONG${i}` }, { ip })).code);
    expect(codes.slice(0, 20).every((c) => c === ErrorCode.REPORT_NOT_GENUINE)).toBe(true);
    expect(codes.slice(20)).toEqual([ErrorCode.RATE_LIMITED, ErrorCode.RATE_LIMITED]);
    // Another client is not affected.
    expect((await call(t, '/freeCheck/verify', { reportNo, code }, { ip: '10.9.9.10' })).code).toBe(0);
  });

  it('a forged PDF (rate edited) is caught: verification shows the true signed rate', async () => {
    // The forger edits the rate printed in the PDF; the number and code on it are still real.
    const printed = await pdfText(pdfBytes);
    expect(printed.text).toContain(reportNo);
    expect(printed.text).toContain(code);
    const forgedRatio = 0.012;
    expect(forgedRatio).not.toBe(ratio);
    const res = await call<{ ratio: number }>(t, '/freeCheck/verify', { reportNo, code });
    expect(res.data.ratio).toBe(ratio);
    expect(res.data.ratio).not.toBe(forgedRatio);
  });

  it('a tampered database row (rate changed without the signing key) is not genuine', async () => {
    const row = await t.db
      .selectFrom('check_reports')
      .selectAll()
      .where('report_no', '=', reportNo)
      .executeTakeFirstOrThrow();
    const summary = { ...(row.summary as Record<string, unknown>), ratio: 0.01 };
    await t.db
      .updateTable('check_reports')
      .set({ summary: JSON.stringify(summary) })
      .where('report_no', '=', reportNo)
      .execute();
    const res = await call(t, '/freeCheck/verify', { reportNo, code });
    expect(res.code).toBe(ErrorCode.REPORT_NOT_GENUINE);
    // Re-signing needs the secret: with it (the server), the row would verify again.
    const resigned = signSummary(t.check.signingSecret, summary as never);
    expect(resigned).not.toBe(row.signature);
    await t.db
      .updateTable('check_reports')
      .set({ summary: JSON.stringify(row.summary) })
      .where('report_no', '=', reportNo)
      .execute();
    expect((await call(t, '/freeCheck/verify', { reportNo, code })).code).toBe(0);
  });
});

describe('a check that fails', () => {
  it('shows the reason and a way forward, gives the free check back, and can be retried', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const up = await upload(t, user.token, { bytes: buildDocx(small.blocks), name: 'f.docx' });
    const orderId = up.data.orderId;
    await call(t, '/freeCheck/payFee', { orderId }, { token: user.token });
    // The stored upload and its text vanish (a broken disk): no attempt can succeed.
    const row = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    await t.check.storage.delete(row.text_key!);
    await t.check.storage.delete(row.file_key!);
    await runCheckJobs(t);
    const failed = await checkStatus(t, user.token, orderId);
    expect(failed.data).toMatchObject({
      checkStatus: 'failed',
      checkStatusText: '检测失败',
      canRetry: true,
      reportReady: false,
    });
    expect(failed.data.failureReason).toMatch(/免费查重次数已退回.*重新检测/);
    expect((await entitlementOf(user.userId)).used_at).toBeNull();
    expect((await getReport(t, user.token, orderId)).message).toBe('检测失败，暂无报告');

    // The file comes back (restored from a backup): a retry runs the check again.
    await t.check.storage.put(
      row.text_key!,
      JSON.stringify({ text: small.text, headings: [], warnings: [], format: 'docx' }),
    );
    const retry = await call<CheckStatus>(t, '/freeCheck/retryCheck', { orderId }, { token: user.token });
    expect(retry.data.checkStatus).toBe('queued');
    expect((await entitlementOf(user.userId)).used_for).toBe(orderId);
    await runCheckJobs(t);
    expect((await checkStatus(t, user.token, orderId)).data.checkStatus).toBe('done');
    expect((await call(t, '/freeCheck/retryCheck', { orderId }, { token: user.token })).code).toBe(
      ErrorCode.CHECK_NOT_RETRYABLE,
    );
  });
});
