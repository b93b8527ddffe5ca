import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWriting, updateWriting } from '../../src/modules/writing/writing.repo.ts';
import { buildCheckApp, type CheckTestApp, seedLibrary } from '../check/check-helper.ts';
import { setFaults } from '../orders/orders-helper.ts';
import { describeWritingFaults, FAULT_LIBRARY, finishedDraft, runFlow } from './fault-flows.ts';

// Every AI-writing flow (titles, outline, abstract, full text, revise) against a model that
// misbehaves in each way of the sandbox's content faults: once (the checks regenerate and the
// user receives clean text) and always (nothing bad is delivered, nothing is charged).
let t: CheckTestApp;

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, FAULT_LIBRARY);
});
afterAll(async () => {
  await t.close();
});

// The same flows against an OpenAI-compatible endpoint outside the app: writing-faults-endpoint.test.ts.
describeWritingFaults(() => t);

describe('the refund of a failed draft, as it really went', () => {
  it('a refund the platform refuses never reads 已自动退款', async () => {
    await setFaults(t, { channel: 'wx', refuseRefundNext: 1 });
    const run = await runFlow(t, 'fullText', 'refusal', true);
    await setFaults(t, { channel: 'wx', reset: true });
    expect(run.delivered).toBe(false);
    expect(run.chargedForNothing).toBe(false);
    expect(run.detail).toMatchObject({
      refundState: 'refused',
      statusText: '全文生成失败，退款未能自动完成，客服将与您联系处理',
    });
    expect(String(run.detail.statusText)).not.toContain('已自动退款');
  });
});

describe('the final audit of the .docx', () => {
  it('says 未编造任何文献 only when every paragraph cites only the list', async () => {
    const d = await finishedDraft(t);
    const download = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/kyfw/web/v1/aiWriting/download',
        headers: { token: d.token, terminal: 'PC' },
        payload: { writingId: d.writingId },
      });
      const { docxParagraphs } = await import('../../src/modules/writing/writing.docx.ts');
      return docxParagraphs(new Uint8Array(res.rawPayload)).join('\n');
    };
    const clean = await download();
    expect(clean).toContain('未编造任何文献');
    // The list prints what a record has, and says plainly what a record lacks.
    expect(clean).toContain('王明, 李华. 城市社区养老服务供给研究[J]. 人口研究, 2021.');
    expect(clean).toContain('社区养老服务质量评估[J].［记录未载明作者、刊名、年份，请查证原文后补全］');
    // A keyword (printed as it was stored) with an author-year attribution: the audit finds it.
    const w = (await findWriting(t.db, d.writingId))!;
    await updateWriting(
      t.db,
      d.writingId,
      {
        abstract: {
          zh: '本文研究城市社区养老服务的供给问题，分析主体与方式。',
          en: 'This paper studies community elderly care services.',
          keywordsZh: ['社区养老', '张三等（2020）'],
          keywordsEn: ['elderly care', 'community'],
        },
      },
      new Date(),
    );
    const audited = await download();
    expect(audited).not.toContain('未编造任何文献');
    expect(audited).toContain('引用核查未通过');
    await updateWriting(t.db, d.writingId, { abstract: w.abstract }, new Date());
  });
});
