import type { AigcReportModel } from '@kyfw/contracts';
import { ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERSONAL,
  PERSONAL_REPORT,
  TEMPLATE_CLOSING,
  TEMPLATE_OPENING,
  TEMPLATED,
} from '../../../../packages/aigc/test/samples.ts';
import {
  buildCheckApp,
  type CheckStatus,
  type CheckTestApp,
  call,
  checkStatus,
  download,
  grantFreeCheck,
  newUser,
  payCheckOrder,
  runCheckJobs,
  upload,
} from './check-helper.ts';
import { buildDocx, buildTxt } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// AIGC detection (issue 14): goods aigc_detection_standard on /check — upload, the free detection
// earned by binding or a paid order, the detector in the job, the report as JSON and PDF, verification.

let t: CheckTestApp;
const GOODS = 'aigc_detection_standard';
const blocks = [
  { text: '人工智能在高校教学中的应用研究', heading: 1 as const },
  { text: TEMPLATED },
  { text: PERSONAL },
];

beforeAll(async () => {
  t = await buildCheckApp();
});

afterAll(async () => {
  await t.close();
});

type GoodsItem = { goodsId: string; kind: string; freeAvailable: boolean; pricePerThousand: string };

async function entitlement(userId: string, kind: 'free_check' | 'free_aigc_detection') {
  return t.db
    .selectFrom('entitlements')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
}

function report(token: string, orderId: string) {
  return call<AigcReportModel>(t, '/freeCheck/report', { orderId }, { token });
}

describe('AIGC detection', () => {
  it('is sold on /check as its own goods, with the free detection of a bound account', async () => {
    const user = await newUser(t);
    const before = await call<GoodsItem[]>(t, '/freeCheck/goodsList', {}, { token: user.token });
    const aigc = before.data.find((g) => g.goodsId === GOODS);
    expect(aigc).toMatchObject({ kind: 'aigc', freeAvailable: false, pricePerThousand: '1.00' });
    await grantFreeCheck(t, user.userId);
    const after = await call<GoodsItem[]>(t, '/freeCheck/goodsList', {}, { token: user.token });
    expect(after.data.find((g) => g.goodsId === GOODS)?.freeAvailable).toBe(true);
    expect(after.data.find((g) => g.goodsId === 'check_undergrad')).toMatchObject({ kind: 'similarity' });
  });

  it('uses the free AIGC detection (not the free check), shades paragraphs and gives reasons', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const up = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: '论文.docx' },
      { goodsId: GOODS },
    );
    expect(up.code).toBe(0);
    expect(up.data.free).toBe(true);
    const started = await call<CheckStatus>(
      t,
      '/freeCheck/payFee',
      { orderId: up.data.orderId },
      { token: user.token },
    );
    expect(started.code).toBe(0);
    expect((await entitlement(user.userId, 'free_aigc_detection')).used_for).toBe(up.data.orderId);
    expect((await entitlement(user.userId, 'free_check')).used_at).toBeNull();

    await runCheckJobs(t);
    const status = await checkStatus(t, user.token, up.data.orderId);
    expect(status.data).toMatchObject({ checkStatus: 'done', progress: 100, kind: 'aigc' });

    const r = await report(user.token, up.data.orderId);
    expect(r.code).toBe(0);
    const model = r.data;
    expect(model.kind).toBe('aigc');
    const texts = model.paragraphs.map((p) => model.text.slice(p.start, p.end));
    expect(texts).toEqual([TEMPLATED, PERSONAL]);
    const [templated, personal] = model.paragraphs;
    expect(templated).toMatchObject({ flagged: true });
    expect(templated!.reasons.length).toBeGreaterThan(0);
    expect(personal).toMatchObject({ flagged: false, reasons: [] });
    expect(model.figures.flaggedCount).toBe(1);
    expect(model.notes[0]).toContain('仅供参考');

    const pdf = await download(t, user.token, up.data.orderId, 'pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(pdf.headers['content-disposition']))).toContain('AIGC检测报告.pdf');
    const { text } = await pdfText(new Uint8Array(pdf.rawPayload));
    expect(text).toContain('AIGC检测报告');
    expect(text).toContain('参考值');
    expect(text).toContain(model.reportNo);

    const html = await download(t, user.token, up.data.orderId, 'html');
    expect(html.json()).toMatchObject({
      code: ErrorCode.RESOURCE_NOT_FOUND,
      message: 'AIGC检测报告只提供 PDF 文件',
    });

    const verified = await call<{ genuine: boolean; kind: string; aigcScore: number }>(
      t,
      '/freeCheck/verify',
      {
        reportNo: model.reportNo,
        code: model.verificationCode,
      },
    );
    expect(verified.data).toMatchObject({ genuine: true, kind: 'aigc', aigcScore: model.figures.score });
  });

  it('says 未见明显AI生成特征 for personal writing and gives no figure as reliable', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const text = `${PERSONAL}\n${PERSONAL.replace('第三章', '第四章')}`;
    const up = await upload(t, user.token, { bytes: buildTxt(text), name: 'own.txt' }, { goodsId: GOODS });
    await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: user.token });
    await runCheckJobs(t);
    const model = (await report(user.token, up.data.orderId)).data;
    expect(model.verdict).toBe('未见明显AI生成特征');
    expect(model.figures.reliable).toBe(false);
    expect(model.paragraphs.every((p) => !p.flagged)).toBe(true);
  });

  it('flags a stock opening and closing, and its verdict and figure agree with the shading (issue 23)', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const text = [TEMPLATE_OPENING, PERSONAL_REPORT, TEMPLATED, TEMPLATE_CLOSING].join('\n');
    const up = await upload(t, user.token, { bytes: buildTxt(text), name: 'essay.txt' }, { goodsId: GOODS });
    await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: user.token });
    await runCheckJobs(t);
    const model = (await report(user.token, up.data.orderId)).data;
    const flagged = model.paragraphs.filter((p) => p.flagged).map((p) => model.text.slice(p.start, p.end));
    expect(flagged).toEqual([TEMPLATE_OPENING, TEMPLATED, TEMPLATE_CLOSING]);
    expect(model.paragraphs[0]!.reasons[0]).toContain('模板化表述');
    expect(model.figures.flaggedCount).toBe(3);
    expect(model.verdict).not.toBe('未见明显AI生成特征');
    expect(model.verdict).toBe(model.figures.reliable ? '疑似含有AI生成内容' : '部分段落疑似含有AI生成内容');
    const list = await call<{ list: { orderId: string; aigcFlaggedChars: number | null }[] }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 10 },
      { token: user.token },
    );
    expect(list.data.list.find((x) => x.orderId === up.data.orderId)?.aigcFlaggedChars).toBe(
      model.figures.flaggedChars,
    );
  });

  it('is a paid order once the free detection is used: priced per 1,000 characters, paid in the sandbox, listed', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const first = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: 'a.docx' },
      { goodsId: GOODS },
    );
    const second = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: 'b.docx' },
      { goodsId: GOODS },
    );
    await call(t, '/freeCheck/payFee', { orderId: first.data.orderId }, { token: user.token });
    const refused = await call(
      t,
      '/freeCheck/payFee',
      { orderId: second.data.orderId },
      { token: user.token },
    );
    expect(refused).toMatchObject({
      code: ErrorCode.CHECK_FREE_UNAVAILABLE,
      message: '免费AIGC检测次数已使用，请重新上传并付费检测',
    });

    const paid = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: 'c.docx' },
      { goodsId: GOODS },
    );
    expect(paid.data).toMatchObject({ free: false, amount: '1.00' });
    await payCheckOrder(t, user.token, paid.data.orderId);
    // one worker round per job: the free detection above and the paid one
    while ((await runCheckJobs(t)).length > 0);
    expect((await checkStatus(t, user.token, paid.data.orderId)).data.checkStatus).toBe('done');
    expect((await report(user.token, paid.data.orderId)).data.kind).toBe('aigc');

    const orders = await call<{ list: { orderId: string; goodsName: string; status: string }[] }>(
      t,
      '/order/list',
      { serviceType: 'check', page: 1, pageSize: 20 },
      { token: user.token },
    );
    expect(orders.data.list.find((o) => o.orderId === paid.data.orderId)).toMatchObject({
      goodsName: 'AIGC检测',
    });
  });

  it('gives the free AIGC detection back when the detection fails for good, and runs again on retry', async () => {
    const user = await newUser(t);
    await grantFreeCheck(t, user.userId);
    const up = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: 'lost.docx' },
      { goodsId: GOODS },
    );
    const orderId = up.data.orderId;
    await call(t, '/freeCheck/payFee', { orderId }, { token: user.token });
    // The stored upload and its text vanish: no attempt can succeed.
    const row = await t.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const text = await t.check.storage.get(row.text_key!);
    await t.check.storage.delete(row.text_key!);
    await t.check.storage.delete(row.file_key!);
    await runCheckJobs(t);
    const failed = await checkStatus(t, user.token, orderId);
    expect(failed.data).toMatchObject({ checkStatus: 'failed', canRetry: true });
    expect(failed.data.failureReason).toMatch(/免费AIGC检测次数已退回/);
    expect((await entitlement(user.userId, 'free_aigc_detection')).used_at).toBeNull();

    await t.check.storage.put(row.text_key!, text);
    const retry = await call<CheckStatus>(t, '/freeCheck/retryCheck', { orderId }, { token: user.token });
    expect(retry.data.checkStatus).toBe('queued');
    expect((await entitlement(user.userId, 'free_aigc_detection')).used_for).toBe(orderId);
    await runCheckJobs(t);
    expect((await report(user.token, orderId)).data.kind).toBe('aigc');
  });

  it('lets nobody else read the report', async () => {
    const owner = await newUser(t);
    await grantFreeCheck(t, owner.userId);
    const up = await upload(t, owner.token, { bytes: buildDocx(blocks), name: 'x.docx' }, { goodsId: GOODS });
    await call(t, '/freeCheck/payFee', { orderId: up.data.orderId }, { token: owner.token });
    await runCheckJobs(t);
    const other = await newUser(t);
    expect((await report(other.token, up.data.orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });
});
