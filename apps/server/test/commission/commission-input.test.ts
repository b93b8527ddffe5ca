import { ErrorCode } from '@kyfw/contracts';
import { describe, expect, it } from 'vitest';
import { enqueue } from '../../src/jobs/queue.ts';
import { SWEEP_JOB } from '../../src/modules/commission/commission.runtime.ts';
import { buildDocx, buildFakeExe } from '../check/fixtures.ts';
import { call, newUser, SECOND } from '../orders/orders-helper.ts';
import {
  contact,
  counts,
  futureDate,
  runCommissionJobs,
  t,
  techSearchForm,
  uploadAttachment,
  useCommissionTestApp,
} from './commission-helper.ts';

// The commissioned services' input: prices from the goods, forms refused in Chinese with nothing
// kept, documents only, another user's attachment refused, loose attachments swept.

useCommissionTestApp();

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

  it('refuses counts the form refuses (101 papers) with the form’s message, 1001', async () => {
    const { token } = await newUser(t);
    const tooMany = await call(
      t,
      '/commission/estimate',
      { service: 'search_report', papers: 101, databases: 1, urgency: 'standard' },
      { token },
    );
    expect(tooMany).toMatchObject({ code: ErrorCode.VALIDATION, message: '一次最多委托 100 篇论文' });
    const documents = await call(
      t,
      '/commission/estimate',
      { service: 'doc_delivery', items: 21 },
      { token },
    );
    expect(documents).toMatchObject({ code: ErrorCode.VALIDATION, message: '一次最多申请 20 篇文献' });
  });
});

describe('a paused service (issue 23)', () => {
  it('says which services take requests; an unlisted one is paused and its submit refused', async () => {
    const { token } = await newUser(t);
    const states = async () =>
      (await call<{ service: string; available: boolean }[]>(t, '/commission/services', {})).data;
    expect(await states()).toEqual([
      { service: 'search_report', available: true },
      { service: 'tech_search', available: true },
      { service: 'doc_delivery', available: true },
      { service: 'tech_evaluation', available: true },
    ]);
    const setActive = (active: boolean) =>
      t.db.updateTable('goods').set({ active }).where('id', '=', 'tech_search_domestic').execute();
    await setActive(false);
    try {
      expect((await states()).find((x) => x.service === 'tech_search')).toEqual({
        service: 'tech_search',
        available: false,
      });
      const refused = await call(t, '/commission/submit', techSearchForm(), { token });
      expect(refused).toMatchObject({
        code: ErrorCode.GOODS_NOT_FOUND,
        message: '该服务暂未开放，请稍后再试',
      });
    } finally {
      await setActive(true);
    }
    expect((await states()).every((x) => x.available)).toBe(true);
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
