import type { ReportModel } from '@kyfw/contracts';
import { ErrorCode } from '@kyfw/contracts';
import { sql } from '@kyfw/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL, TEMPLATED } from '../../../../packages/aigc/test/samples.ts';
import { createWorker } from '../../src/jobs/index.ts';
import { checkJobDefinitions } from '../../src/modules/check/check.jobs.ts';
import { registerUser, sendCode } from '../accounts/accounts-helper.ts';
import { importSmallLibrary } from '../small-library.ts';
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
  payCheckOrder,
  runCheckJobs,
  storedCheckFiles,
  upload,
} from './check-helper.ts';
import { buildDocx } from './fixtures.ts';
import { pdfText } from './pdf-text.ts';

// AIGC detection ordered together with a similarity check (issue 14, decision 0020): 同时检测AIGC
// on /check — one upload, one order naming both parts at the server's price, one payment; the job
// detects, then compares, each part kept when the other is retried; the report (web JSON, PDF,
// HTML) has an AIGC section; verification and the list show it; a detection that fails for good
// refunds its part only.

let t: CheckTestApp;
const blocks = [
  { text: '人工智能在高校教学中的应用研究', heading: 1 as const },
  { text: TEMPLATED },
  { text: PERSONAL },
];

beforeAll(async () => {
  t = await buildCheckApp();
  // The similarity goods are sold only with a library to compare with (issue 12).
  await importSmallLibrary(t);
});

afterAll(async () => {
  await t.close();
});

interface AddonState {
  goodsName: string;
  status: string;
  statusText: string;
  amount: string;
  free: boolean;
  score: number | null;
  reliable: boolean | null;
  failureReason: string | null;
  refundedAmount: string;
}

interface UploadWithAddon {
  orderId: string;
  orderNo: string;
  chars: number;
  amount: string;
  amountFen: number;
  free: boolean;
  freeNote: string | null;
  goodsName: string;
  parts: { goodsId: string; goodsName: string; amount: string; amountFen: number }[];
  aigcAddon: { goodsId: string; goodsName: string; amount: string; free: boolean } | null;
}

async function uploadWithAddon(token: string, name = '论文.docx') {
  const up = await upload(t, token, { bytes: buildDocx(blocks), name }, { aigcAddon: 'true' });
  expect(up.code).toBe(0);
  return up.data as unknown as UploadWithAddon;
}

async function status(token: string, orderId: string) {
  return (await checkStatus(t, token, orderId)).data as CheckStatus & { aigcAddon: AddonState | null };
}

/** Every job that is due, round after round, until none is left. */
async function runAll() {
  while ((await runCheckJobs(t)).length > 0);
}

/** Every job of the check module once (the deletion's purge job among them). */
async function runPurge() {
  const worker = createWorker({ db: t.db, definitions: checkJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
}

/** The check job's next attempt is due now (the backoff between attempts has passed). */
async function retryDueNow(checkId: string) {
  await sql`update jobs set run_at = now() - interval '1 second'
    where name = 'check.run' and payload->>'checkId' = ${checkId} and status = 'queued'`.execute(t.db);
}

describe('AIGC detection ordered with a similarity check', () => {
  it('offers the AIGC goods with its price on every similarity goods', async () => {
    const user = await newUser(t);
    const goods = await call<{ goodsId: string; aigcAddon: unknown }[]>(
      t,
      '/freeCheck/goodsList',
      {},
      { token: user.token },
    );
    expect(goods.data.find((g) => g.goodsId === 'check_undergrad')?.aigcAddon).toEqual({
      goodsId: 'aigc_detection_standard',
      name: 'AIGC检测',
      pricePerThousand: '1.00',
      freeAvailable: false,
      freeMaxChars: 10_000,
    });
    expect(goods.data.find((g) => g.goodsId === 'aigc_detection_standard')?.aigcAddon).toBeNull();
  });

  it('is one order of both parts at the server price, one payment, one report with an AIGC section', async () => {
    const user = await newUser(t);
    const up = await uploadWithAddon(user.token);
    // 2 元/千字 + 1 元/千字, each rounded up to whole thousands of characters.
    const units = Math.ceil(up.chars / 1000);
    expect(up).toMatchObject({
      free: false,
      amountFen: units * 300,
      goodsName: '本科毕业论文查重＋AIGC检测',
      parts: [
        { goodsId: 'check_undergrad', amountFen: units * 200 },
        { goodsId: 'aigc_detection_standard', goodsName: 'AIGC检测', amountFen: units * 100 },
      ],
      aigcAddon: { goodsId: 'aigc_detection_standard', free: false },
    });
    const order = await call<{ amountFen: number; goodsName: string; parts: unknown[] }>(
      t,
      '/order/detail',
      { orderId: up.orderId },
      { token: user.token },
    );
    expect(order.data).toMatchObject({
      amountFen: units * 300,
      goodsName: '本科毕业论文查重＋AIGC检测',
      parts: [
        { goodsName: '本科毕业论文查重', amountFen: units * 200 },
        { goodsName: 'AIGC检测', amountFen: units * 100 },
      ],
    });
    expect((await status(user.token, up.orderId)).aigcAddon).toMatchObject({ status: 'pending' });

    await payCheckOrder(t, user.token, up.orderId);
    const records = await call<{ list: { orderId: string; goodsName: string; amountFen: number }[] }>(
      t,
      '/payment/records',
      { page: 1, pageSize: 20 },
      { token: user.token },
    );
    expect(records.data.list).toMatchObject([
      { orderId: up.orderId, goodsName: '本科毕业论文查重＋AIGC检测', amountFen: units * 300 },
    ]);
    await runAll();
    const done = await status(user.token, up.orderId);
    expect(done).toMatchObject({ checkStatus: 'done', kind: 'similarity' });
    expect(done.aigcAddon).toMatchObject({ status: 'done', statusText: '已完成', failureReason: null });

    const model = (await getReport(t, user.token, up.orderId)).data as ReportModel;
    expect(model.figures.totalChars).toBe(up.chars);
    const section = model.aigc;
    if (section?.status !== 'done') throw new Error('expected an AIGC section');
    const texts = section.paragraphs.map((p) => model.text.slice(p.start, p.end));
    expect(texts).toEqual([TEMPLATED, PERSONAL]);
    expect(section.paragraphs[0]).toMatchObject({ flagged: true });
    expect(section.paragraphs[0]!.reasons.length).toBeGreaterThan(0);
    expect(section.paragraphs[1]).toMatchObject({ flagged: false });
    expect(section.notes[0]).toContain('仅供参考');
    expect(done.aigcAddon?.score).toBe(section.figures.score);

    const pdf = await pdfText(new Uint8Array((await download(t, user.token, up.orderId, 'pdf')).rawPayload));
    expect(pdf.text).toContain('论文相似性检测报告');
    expect(pdf.text).toContain('AIGC检测结果（参考值）');
    expect(pdf.text).toContain('AIGC指数（参考值）');
    const html = (await download(t, user.token, up.orderId, 'html')).body;
    expect(html).toContain('AIGC检测结果（参考值）');
    expect(html).toMatch(/class="aigc-para is-flagged" title="AIGC指数 [\d.]+（参考值）/);

    const verified = await call<{ aigcAddon: unknown }>(t, '/freeCheck/verify', {
      reportNo: model.reportNo,
      code: model.verificationCode,
    });
    expect(verified.data.aigcAddon).toEqual({
      goodsName: 'AIGC检测',
      failed: false,
      score: section.figures.score,
      reliable: section.figures.reliable,
      flaggedChars: section.figures.flaggedChars,
    });
    const list = await call<{ list: { orderId: string; aigcAddon: AddonState | null; parts: unknown[] }[] }>(
      t,
      '/freeCheck/orderList',
      { page: 1, pageSize: 10 },
      { token: user.token },
    );
    const listed = list.data.list.find((c) => c.orderId === up.orderId);
    expect(listed?.aigcAddon).toMatchObject({ goodsName: 'AIGC检测', status: 'done' });
    expect(listed?.parts).toEqual(up.parts);

    // Nobody else reads it.
    const other = await newUser(t);
    expect((await getReport(t, other.token, up.orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    expect((await checkStatus(t, other.token, up.orderId)).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });

  it('keeps a finished detection when the comparison is retried (nothing detected twice)', async () => {
    const user = await newUser(t);
    const up = await uploadWithAddon(user.token);
    await payCheckOrder(t, user.token, up.orderId);
    const pool = t.check.pool;
    const { compare, detectAigc } = pool;
    let detections = 0;
    pool.detectAigc = (...args) => {
      detections++;
      return detectAigc.apply(pool, args);
    };
    pool.compare = async () => {
      throw new Error('worker thread lost');
    };
    try {
      await runCheckJobs(t);
      expect((await status(user.token, up.orderId)).aigcAddon).toMatchObject({ status: 'done' });
      pool.compare = compare;
      await retryDueNow(up.orderId);
      await runCheckJobs(t);
    } finally {
      pool.compare = compare;
      pool.detectAigc = detectAigc;
    }
    expect(detections).toBe(1);
    expect((await status(user.token, up.orderId)).checkStatus).toBe('done');
    expect((await getReport(t, user.token, up.orderId)).data.aigc?.status).toBe('done');
  });

  it('refunds the AIGC part only when the detection fails for good; the similarity report is delivered', async () => {
    const user = await newUser(t);
    const up = await uploadWithAddon(user.token);
    await payCheckOrder(t, user.token, up.orderId);
    const pool = t.check.pool;
    const { detectAigc } = pool;
    pool.detectAigc = async () => {
      throw new Error('detector crashed');
    };
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        await retryDueNow(up.orderId);
        await runCheckJobs(t);
      }
    } finally {
      pool.detectAigc = detectAigc;
    }
    const aigcPart = up.parts[1]!;
    const after = await status(user.token, up.orderId);
    expect(after.checkStatus).toBe('done');
    expect(after.aigcAddon).toMatchObject({
      status: 'failed',
      statusText: '检测失败',
      refundedAmount: aigcPart.amount,
    });
    expect(after.aigcAddon?.failureReason).toContain(`已为您自动退还该部分费用 ¥${aigcPart.amount}`);

    const order = await call<{
      status: string;
      refundedFen: number;
      refunds: { amountFen: number; reason: string; status: string }[];
    }>(t, '/order/detail', { orderId: up.orderId }, { token: user.token });
    expect(order.data).toMatchObject({
      status: 'done',
      refundedFen: aigcPart.amountFen,
      refunds: [
        {
          amountFen: aigcPart.amountFen,
          reason: 'AIGC检测未能完成，自动退还该部分款项',
          status: 'succeeded',
        },
      ],
    });

    const model = (await getReport(t, user.token, up.orderId)).data as ReportModel;
    expect(model.aigc).toEqual({
      status: 'failed',
      goodsName: 'AIGC检测',
      message: after.aigcAddon?.failureReason,
    });
    const pdf = await pdfText(new Uint8Array((await download(t, user.token, up.orderId, 'pdf')).rawPayload));
    expect(pdf.text).toContain('AIGC检测未能完成');
    const verified = await call<{ aigcAddon: unknown }>(t, '/freeCheck/verify', {
      reportNo: model.reportNo,
      code: model.verificationCode,
    });
    expect(verified.data.aigcAddon).toMatchObject({ failed: true, score: null });
  });

  it('is free only when both free uses apply, and uses both at the start', async () => {
    const both = await newUser(t);
    await grantFreeCheck(t, both.userId);
    const free = await uploadWithAddon(both.token);
    expect(free).toMatchObject({ free: true, amountFen: 0, aigcAddon: { free: true, amountFen: 0 } });
    const started = await call<CheckStatus>(
      t,
      '/freeCheck/payFee',
      { orderId: free.orderId },
      { token: both.token },
    );
    expect(started.code).toBe(0);
    const used = await t.db
      .selectFrom('entitlements')
      .select(['kind', 'used_for'])
      .where('user_id', '=', both.userId)
      .where('kind', 'in', ['free_check', 'free_aigc_detection'])
      .orderBy('kind')
      .execute();
    expect(used).toEqual([
      { kind: 'free_aigc_detection', used_for: free.orderId },
      { kind: 'free_check', used_for: free.orderId },
    ]);
    await runAll();
    expect((await getReport(t, both.token, free.orderId)).data.aigc?.status).toBe('done');

    // Only the free check left: the add-on makes it a paid order, and the free check stays unused.
    const one = await newUser(t);
    await grantFreeCheck(t, one.userId);
    await t.db
      .updateTable('entitlements')
      .set({ used_at: new Date(), used_for: null })
      .where('user_id', '=', one.userId)
      .where('kind', '=', 'free_aigc_detection')
      .execute();
    const paid = await uploadWithAddon(one.token);
    expect(paid).toMatchObject({ free: false });
    expect(paid.amountFen).toBeGreaterThan(0);
    expect(paid.freeNote).toContain('两次免费次数都可用');
  });

  it('is refused on AIGC goods', async () => {
    const user = await newUser(t);
    const refused = await upload(
      t,
      user.token,
      { bytes: buildDocx(blocks), name: 'a.docx' },
      { goodsId: 'aigc_detection_standard', aigcAddon: 'true' },
    );
    expect(refused).toMatchObject({
      code: ErrorCode.VALIDATION,
      message: 'AIGC检测不能再加购AIGC检测，请选择查重类型',
    });
  });

  it('is in the data export, and its stored section goes with the account', async () => {
    const { phone, token } = await registerUser(t);
    const userId = (await call<{ id: string }>(t, '/getUserInfo', {}, { token })).data.id;
    await grantFreeCheck(t, userId);
    const up = await uploadWithAddon(token);
    await call(t, '/freeCheck/payFee', { orderId: up.orderId }, { token });
    await runAll();
    const before = await t.db
      .selectFrom('check_aigc_addons')
      .selectAll()
      .where('check_id', '=', up.orderId)
      .executeTakeFirstOrThrow();
    expect(before.model_key).toMatch(/aigc-part\.json$/);
    expect(storedCheckFiles(t).some((f) => f.endsWith('aigc-part.json'))).toBe(true);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/kyfw/web/v1/websiteUser/exportData',
      headers: { token },
    });
    expect(exported.json().checks).toEqual([
      expect.objectContaining({
        aigcAddon: expect.objectContaining({ goodsName: 'AIGC检测', status: 'done', free: true }),
      }),
    ]);

    t.clock.advance(2 * 60_000);
    const code = await sendCode(t, phone, '4', { token });
    expect((await call(t, '/websiteUser/deleteAccount', { checkCode: code }, { token })).code).toBe(0);
    const after = await t.db
      .selectFrom('check_aigc_addons')
      .selectAll()
      .where('check_id', '=', up.orderId)
      .executeTakeFirstOrThrow();
    expect(after.model_key).toBeNull();
    await runPurge();
    expect(storedCheckFiles(t).filter((f) => f.includes(before.model_key!.split('/').at(-2)!))).toEqual([]);
  });
});
