import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { reductionRewriteJob } from '../../src/modules/reduction/reduction.jobs.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  newUser,
  payCheckOrder,
  runCheckJobs,
  seedLibrary,
  upload,
} from '../check/check-helper.ts';
import { devPay } from '../orders/orders-helper.ts';

let t: CheckTestApp;
const R = '/weightReduction';

// A library record the pasted text copies from, so the engine finds the copy before the rewrite.
const SOURCE =
  '研究表明，随着互联网技术的不断发展，在线教育平台的用户规模显著扩大，因此提高教学质量成为平台发展的重要问题。' +
  '通过对平台数据进行分析，可以发现学习者的参与程度对学习效果具有重要影响，平台需要采用有效的方法促进学习者持续参与。';
const PASTED = [
  '第一章 绪论',
  `${SOURCE}2020年全国在线教育用户达到3.42亿人，占网民整体的34.6%[1]。`,
  '张华认为“学习投入是学习成效的关键”（张华, 2019），模型采用BERT-base，损失函数为L = -log p(y)。目前相关研究主要集中在平台功能分析方面，对学习者参与的作用机制存在不足[2-4]。',
].join('\n');

interface Submitted {
  reductionId: string;
  orderId: string;
  orderNo: string;
  amount: string;
  chars: number;
}
interface ResultView {
  status: string;
  rateBefore: number;
  rateAfter: number;
  aigcBefore: number;
  aigcAfter: number;
  sandbox: boolean;
  sandboxNote: string | null;
  items: { index: number; before: string; after: string; outcome: string; note: string | null }[];
}

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    {
      id: 'lib-r1',
      text: SOURCE.repeat(3),
      title: '在线教育平台学习者参与研究',
      authors: ['李明'],
      year: 2021,
      source: '教育研究',
    },
  ]);
});
afterAll(async () => {
  await t.close();
});

async function runJobs() {
  const worker = createWorker({ db: t.db, definitions: [reductionRewriteJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

describe('降重 of pasted text against the LLM sandbox', () => {
  let token: string;
  let sub: Submitted;

  it('prices per 1,000 characters from the goods', async () => {
    ({ token } = await newUser(t));
    const price = await call<{ goodsId: string; unit: string; amountFen: number }>(
      t,
      `${R}/getGoodsPrice`,
      { chars: 2500 },
      { token },
    );
    expect(price.data.goodsId).toBe('reduction_standard');
    expect(price.data.amountFen).toBe(1500);
    const ai = await call<{ goodsId: string; amountFen: number }>(
      t,
      `${R}/getGoodsPriceAI`,
      { chars: 1000 },
      { token },
    );
    expect(ai.data.goodsId).toBe('aigc_reduction_standard');
    expect(ai.data.amountFen).toBe(600);
  });

  it('refuses empty, too short and over-limit text in Chinese and creates no order', async () => {
    const empty = await call(t, `${R}/submitContent`, { text: '  \n ' }, { token });
    expect(empty.message).toBe('请输入需要改写的文字');
    const short = await call(t, `${R}/submitContent`, { text: '太短了。' }, { token });
    expect(short.message).toBe('文字太短，至少需要 20 个字');
    const long = await call(
      t,
      `${R}/submitContent`,
      { text: '这是一段很长的文字，'.repeat(31_000) },
      { token },
    );
    expect(long.message).toBe('文字共 310000 字，超过单次上限 300000 字，请分段提交');
    const list = await call<{ list: unknown[] }>(t, `${R}/getMyWeightReductionOrder`, {}, { token });
    expect(list.data.list).toHaveLength(0);
  });

  it('creates a pending order; the result is not available before payment', async () => {
    const res = await call<Submitted>(
      t,
      `${R}/submitContent`,
      { text: PASTED, title: '在线教育' },
      { token },
    );
    expect(res.code).toBe(0);
    sub = res.data;
    expect(sub.amount).toBe('5.00');
    const early = await call(t, `${R}/txtWeightResult`, { reductionId: sub.reductionId }, { token });
    expect(early.message).toBe('正在改写（0%），完成后即可查看');
    const { token: other } = await newUser(t);
    const foreign = await call(t, `${R}/txtWeightResult`, { reductionId: sub.reductionId }, { token: other });
    expect(foreign.message).toBe('降重记录不存在');
  });

  it('after payment rewrites with every fact kept, and shows before/after with both measures', async () => {
    const qr = await call<{ orderNo: string }>(
      t,
      `${R}/orderPayment`,
      { reductionId: sub.reductionId, payType: 'wx' },
      { token },
    );
    expect(qr.code).toBe(0);
    expect((await devPay(t, qr.data.orderNo, 'wx')).code).toBe(0);
    await t.sandbox.notificationSettled('wx', qr.data.orderNo);
    const status = await call<{ payStatus: number }>(
      t,
      `${R}/orderPayStatus`,
      { orderId: sub.orderId },
      { token },
    );
    expect(status.data.payStatus).toBe(1);
    await runJobs();
    const res = await call<ResultView>(
      t,
      `${R}/txtWeightResult`,
      { reductionId: sub.reductionId },
      { token },
    );
    expect(res.code).toBe(0);
    const v = res.data;
    expect(v.status).toBe('done');
    expect(v.sandbox).toBe(true);
    expect(v.sandboxNote).toContain('沙箱');
    // The engine finds the planted copy before; after the sandbox's substitutions it measures again
    // (its paraphrase matching still sees most of them: the sandbox is no real rewriter).
    expect(v.rateBefore).toBeGreaterThan(0.3);
    expect(v.rateAfter).toBeGreaterThan(0);
    expect(typeof v.aigcBefore).toBe('number');
    expect(typeof v.aigcAfter).toBe('number');
    const heading = v.items.find((i) => i.before === '第一章 绪论')!;
    expect(heading.outcome).toBe('unchanged');
    const rewritten = v.items.filter((i) => i.outcome === 'rewritten');
    expect(rewritten.length).toBeGreaterThan(0);
    for (const i of rewritten) {
      expect(i.after).toContain('【沙箱示例】');
      expect(i.after).not.toBe(i.before);
    }
    const all = v.items.map((i) => i.after).join('\n');
    for (const fact of [
      '2020年',
      '3.42亿',
      '34.6%',
      '[1]',
      '“学习投入是学习成效的关键”',
      '（张华, 2019）',
      'BERT-base',
      'L = -log p(y)',
      '[2-4]',
    ])
      expect(all).toContain(fact);
  });

  it('downloads the rewritten text as a .docx marked as sandbox text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1${R}/download`,
      headers: { token },
      payload: { reductionId: sub.reductionId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('wordprocessingml');
    const xml = new TextDecoder().decode(unzipSync(new Uint8Array(res.rawPayload))['word/document.xml']);
    expect(xml).toContain('【沙箱示例】');
    expect(xml).toContain('34.6%');
  });

  it('lists the order and refuses to delete nothing else; deleting hides it', async () => {
    const list = await call<{ list: { reductionId: string; statusText: string }[] }>(
      t,
      `${R}/getMyWeightReductionOrder`,
      {},
      { token },
    );
    expect(list.data.list.map((x) => x.reductionId)).toEqual([sub.reductionId]);
    expect(list.data.list[0]!.statusText).toBe('已完成');
    expect((await call(t, `${R}/delReport`, { reductionId: sub.reductionId }, { token })).code).toBe(0);
    const after = await call<{ list: unknown[] }>(t, `${R}/getMyWeightReductionOrder`, {}, { token });
    expect(after.data.list).toHaveLength(0);
  });
});

describe('faults of the LLM during a rewrite', () => {
  it('a nonsense answer fails the fact check and is rewritten again, never delivered', async () => {
    const { token } = await newUser(t);
    const sub = (
      await call<Submitted>(t, `${R}/submitContent`, { text: PASTED, kind: 'aigc_reduction' }, { token })
    ).data;
    await payCheckOrder(t, token, sub.orderId);
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { nonsense: 1 } });
    await runJobs();
    const v = (await call<ResultView>(t, `${R}/txtWeightResult`, { reductionId: sub.reductionId }, { token }))
      .data;
    expect(v.status).toBe('done');
    for (const i of v.items) expect(i.after).not.toContain('天气不错');
    expect(v.items.some((i) => i.outcome === 'rewritten')).toBe(true);
  });

  it('an LLM that stays down refunds the order in full after the last attempt', async () => {
    const { token } = await newUser(t);
    const sub = (await call<Submitted>(t, `${R}/submitContent`, { text: PASTED }, { token })).data;
    await payCheckOrder(t, token, sub.orderId);
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { serverError: 100 } });
    for (let i = 0; i < 3; i += 1) {
      await t.db
        .updateTable('jobs')
        .set({ run_at: new Date(0) })
        .where('status', '=', 'queued')
        .execute();
      await runJobs();
    }
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
    const res = await call(t, `${R}/txtWeightResult`, { reductionId: sub.reductionId }, { token });
    expect(res.message).toBe('改写失败，全部 ¥5.00 已自动退款');
    const order = await call<{ status: string; statusText: string }>(
      t,
      '/order/detail',
      { orderId: sub.orderId },
      { token },
    );
    expect(order.data.statusText).toContain('改写失败');
  });
});

describe('降重 of a check report: only its flagged paragraphs', () => {
  it("turns the user's own finished report into an order that rewrites the flagged paragraphs only", async () => {
    const { token } = await newUser(t);
    const up = await upload(t, token, { bytes: new TextEncoder().encode(PASTED), name: '在线教育.txt' });
    expect(up.code).toBe(0);
    await payCheckOrder(t, token, up.data.orderId);
    await runCheckJobs(t);
    const { token: other } = await newUser(t);
    const foreign = await call(t, `${R}/submitReport`, { orderId: up.data.orderId }, { token: other });
    expect(foreign.message).toBe('查重报告不存在或不属于当前账号');
    const res = await call<Submitted & { paragraphs: number }>(
      t,
      '/order/trans',
      { orderId: up.data.orderId },
      { token },
    );
    expect(res.code).toBe(0);
    expect(res.data.paragraphs).toBe(1);
    await payCheckOrder(t, token, res.data.orderId);
    await runJobs();
    const v = (
      await call<ResultView>(t, `${R}/txtWeightResult`, { reductionId: res.data.reductionId }, { token })
    ).data;
    expect(v.status).toBe('done');
    expect(v.items.filter((i) => i.outcome === 'rewritten')).toHaveLength(1);
    expect(v.items.find((i) => i.before.startsWith('张华认为'))!.outcome).toBe('unchanged');
  });

  it('refuses a report that is not finished', async () => {
    const { token } = await newUser(t);
    const up = await upload(t, token, { bytes: new TextEncoder().encode(PASTED), name: '在线教育.txt' });
    const res = await call(t, `${R}/submitReport`, { orderId: up.data.orderId }, { token });
    expect(res.message).toBe('该查重报告尚未完成，完成后才能降重');
  });
});
