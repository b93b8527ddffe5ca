import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/jobs/index.ts';
import { writingFullTextJob } from '../../src/modules/writing/writing.jobs.ts';
import { usageOfOrder } from '../../src/providers/llm/index.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
  seedLibrary,
} from '../check/check-helper.ts';

let t: CheckTestApp;

/** A new account with the binding's set (its AI-writing trial is the free outline). */
async function boundUser() {
  const user = await newUser(t);
  await grantFreeCheck(t, user.userId);
  return user;
}
const A = '/aiWriting';

interface OutlineItem {
  name: string;
  wordCount: number;
  form: string;
  formula: string;
  code: string;
  picture: string;
  children?: OutlineItem[];
}
interface WritingView {
  writingId: string;
  title: string;
  status: string;
  statusText: string;
  progress: number;
  outline: OutlineItem[] | null;
  orderId: string | null;
  sources: { n: number; title: string }[];
  sectionsWritten: number;
  removedCitations: number;
  sandbox: boolean;
}

beforeAll(async () => {
  t = await buildCheckApp();
  await seedLibrary(t, [
    {
      id: 'lib-1',
      text: '社区养老服务供给研究的正文。'.repeat(40),
      title: '城市社区养老服务供给研究',
      authors: ['王明', '李华'],
      year: 2021,
      source: '人口研究',
    },
    {
      id: 'lib-2',
      text: '智慧养老平台评估的正文。'.repeat(40),
      title: '智慧养老平台的评估与优化',
      authors: ['张三'],
      year: 2022,
      source: '社会保障研究',
    },
    {
      id: 'lib-3',
      text: '无关的材料科学文本。'.repeat(40),
      title: '高熵合金的力学性能',
      authors: ['赵六'],
      year: 2020,
      source: '材料导报',
    },
    {
      // Found through its abstract and keywords (the title holds neither search word).
      id: 'lib-4',
      text: '长期护理保险筹资的正文。'.repeat(40),
      title: '财政可持续性与长期护理',
      abstract: '分析长期护理保险的筹资机制与给付水平。',
      keywords: ['护理补贴', '筹资机制'],
      authors: ['周七'],
      year: 2015,
      source: '财政研究',
      discipline: '公共管理',
    },
    {
      id: 'lib-5',
      text: 'Community care services for older adults in cities. '.repeat(30),
      title: 'Community care for older adults in cities',
      authors: ['Smith J', 'Lee K'],
      year: 2020,
      source: 'Ageing and Society',
    },
  ]);
});
afterAll(async () => {
  await t.close();
});

async function runWritingJobs() {
  const worker = createWorker({ db: t.db, definitions: [writingFullTextJob], services: t.root.services });
  const ids = await worker.tick();
  await worker.stop();
  return ids;
}

const leaves = (items: OutlineItem[]): OutlineItem[] =>
  items.flatMap((i) => (i.children && i.children.length > 0 ? leaves(i.children) : [i]));

describe('AI writing from topic to .docx against the LLM sandbox', () => {
  let token: string;
  let writingId: string;
  let orderId: string;

  it('suggests marked titles, and refuses an empty or over-long topic in Chinese', async () => {
    ({ token } = await boundUser());
    const empty = await call(t, `${A}/title`, { topic: ' ' }, { token });
    expect(empty.code).not.toBe(0);
    expect(empty.message).toBe('请输入论文主题');
    const long = await call(t, `${A}/title`, { topic: '长'.repeat(201) }, { token });
    expect(long.message).toBe('论文主题不能超过 200 个字');
    const res = await call<{ titles: { title: string; reason: string }[]; sandbox: boolean }>(
      t,
      `${A}/title`,
      { topic: '城市社区养老服务', area: 'dissertation' },
      { token },
    );
    expect(res.code).toBe(0);
    expect(res.data.sandbox).toBe(true);
    expect(res.data.titles.length).toBeGreaterThanOrEqual(3);
    for (const s of res.data.titles) {
      expect(s.title).toContain('【沙箱示例】');
      expect(s.title).toContain('城市社区养老服务');
    }
    const anonymous = await call(t, `${A}/title`, { topic: '城市社区养老服务' });
    expect(anonymous.code).not.toBe(0);
  });

  it('saves a draft and generates its outline on the free outline from the binding', async () => {
    const free = await call<{ free: number }>(t, `${A}/freeOutlineNumber`, {}, { token });
    expect(free.data.free).toBe(1);
    const saved = await call<WritingView>(
      t,
      `${A}/saveOrder`,
      {
        area: 'dissertation',
        topic: '城市社区养老服务',
        title: '城市社区养老服务供给研究',
        targetWords: 6000,
        discipline: '社会学',
      },
      { token },
    );
    expect(saved.code).toBe(0);
    writingId = saved.data.writingId;
    const res = await call<{ outline: OutlineItem[]; freeOutlinesLeft: number }>(
      t,
      `${A}/outline`,
      { writingId },
      { token },
    );
    expect(res.code).toBe(0);
    expect(res.data.freeOutlinesLeft).toBe(0);
    const total = res.data.outline.reduce((s, c) => s + c.wordCount, 0);
    expect(Math.abs(total - 6000)).toBeLessThanOrEqual(600);
    for (const chapter of res.data.outline) {
      expect(chapter).toMatchObject({ form: '0', formula: '0', code: '0', picture: '0' });
      if (chapter.children?.length)
        expect(chapter.wordCount).toBe(chapter.children.reduce((s, c) => s + c.wordCount, 0));
    }
    expect((await call<{ free: number }>(t, `${A}/freeOutlineNumber`, {}, { token })).data.free).toBe(0);
  });

  it('saves the edited outline, and refuses budgets that do not add up or a fourth level', async () => {
    const outline: OutlineItem[] = [
      {
        name: '绪论',
        wordCount: 0,
        form: '0',
        formula: '0',
        code: '0',
        picture: '0',
        children: [
          { name: '研究背景', wordCount: 800, form: '0', formula: '0', code: '0', picture: '0' },
          { name: '研究现状', wordCount: 1200, form: '1', formula: '0', code: '0', picture: '0' },
        ],
      },
      { name: '现状分析', wordCount: 2500, form: '0', formula: '0', code: '0', picture: '1' },
      { name: '结论', wordCount: 1500, form: '0', formula: '1', code: '0', picture: '0' },
    ];
    const saved = await call<{ outline: OutlineItem[] }>(
      t,
      `${A}/combOutline`,
      { writingId, outline },
      { token },
    );
    expect(saved.code).toBe(0);
    expect(saved.data.outline[0]!.wordCount).toBe(2000);
    const off = await call(t, `${A}/combOutline`, { writingId, outline: outline.slice(0, 1) }, { token });
    expect(off.message).toBe('各章字数合计 2000 字，与目标字数 6000 字相差超过 10%，请调整');
    const deep = structuredClone(outline);
    deep[0]!.children![0]!.children = [
      {
        name: '第三级',
        wordCount: 800,
        form: '0',
        formula: '0',
        code: '0',
        picture: '0',
        children: [],
      } as OutlineItem,
    ];
    deep[0]!.children![0]!.children![0]!.children = [];
    const tooDeep = await call(t, `${A}/combOutline`, { writingId, outline: deep }, { token });
    expect(tooDeep.code).not.toBe(0);
    const tooLong = await call(
      t,
      `${A}/combOutline`,
      { writingId, outline: Array.from({ length: 16 }, () => ({ ...outline[0]!, children: [] })) },
      { token },
    );
    expect(tooLong.message).toBe('大纲最多 15 章，每章最多 15 节，每节最多 12 个小节');
    // Another user sees nothing of it.
    const other = await newUser(t);
    const peek = await call(t, `${A}/query`, { writingId }, { token: other.token });
    expect(peek.message).toBe('论文不存在或已删除');
  });

  it('writes the abstract, finds library records and formats pasted references in GB/T 7714-2015', async () => {
    const abs = await call<{ zh: string; keywordsZh: string[] }>(
      t,
      `${A}/abstract`,
      { writingId },
      { token },
    );
    expect(abs.code).toBe(0);
    expect(abs.data.zh).toContain('【沙箱示例】');
    const found = await call<{ list: { title: string; formatted: string }[] }>(
      t,
      `${A}/searchReference`,
      { keyword: '社区养老' },
      { token },
    );
    expect(found.data.list.map((s) => s.title)).toEqual(['城市社区养老服务供给研究']);
    expect(found.data.list[0]!.formatted).toBe('王明, 李华. 城市社区养老服务供给研究[J]. 人口研究, 2021.');
    expect(found.data).toMatchObject({
      total: 1,
      message: '在文献库中检索到 1 篇相关文献（只列出真实存在的记录，不编造）',
    });
    // Words of the title and keywords, a year range; a year that is not one is refused.
    const recent = await call<{ list: { title: string }[]; total: number }>(
      t,
      `${A}/searchReference`,
      { keyword: '养老 平台', yearFrom: 2022 },
      { token },
    );
    expect(recent.data.list.map((s) => s.title)).toEqual(['智慧养老平台的评估与优化']);
    expect(recent.data.total).toBe(1);
    const none = await call<{ list: unknown[]; total: number; message: string }>(
      t,
      `${A}/searchReference`,
      { keyword: '养老', yearTo: 2000 },
      { token },
    );
    expect(none.data).toMatchObject({ list: [], total: 0 });
    expect(none.data.message).toContain('未在文献库中检索到');
    // A word only in a record's abstract, or only among its keywords, finds it.
    const titlesOf = async (body: Record<string, unknown>) =>
      (await call<{ list: { title: string }[] }>(t, `${A}/searchReference`, body, { token })).data.list.map(
        (s) => s.title,
      );
    expect(await titlesOf({ keyword: '给付水平' })).toEqual(['财政可持续性与长期护理']);
    expect(await titlesOf({ keyword: '护理补贴' })).toEqual(['财政可持续性与长期护理']);
    // Equal matches: newest first, unless the writing's 学科 puts its own records first.
    expect(await titlesOf({ keyword: '养老 护理' })).toEqual([
      '智慧养老平台的评估与优化',
      '城市社区养老服务供给研究',
      '财政可持续性与长期护理',
    ]);
    expect((await titlesOf({ keyword: '养老 护理', discipline: '公共管理' }))[0]).toBe(
      '财政可持续性与长期护理',
    );
    const badYear = await call(t, `${A}/searchReference`, { keyword: '养老', yearFrom: 'abc' }, { token });
    expect(badYear.message).toBe('年份须为 1900 到 2100 之间的整数');
    const reversed = await call(
      t,
      `${A}/searchReference`,
      { keyword: '养老', yearFrom: 2022, yearTo: 2019 },
      { token },
    );
    expect(reversed.message).toBe('起始年份不能晚于截止年份');
    const longWord = await call(t, `${A}/searchReference`, { keyword: '养'.repeat(101) }, { token });
    expect(longWord.message).toBe('检索词不能超过 100 个字');
    // English records only; where none fits, it says so rather than invent one.
    const en = await call<{ list: { title: string; formatted: string }[]; total: number }>(
      t,
      `${A}/searchEnReference`,
      { keyword: 'community care' },
      { token },
    );
    expect(en.data.list.map((s) => s.title)).toEqual(['Community care for older adults in cities']);
    expect(en.data.list[0]!.formatted).toBe(
      'SMITH J, LEE K. Community care for older adults in cities[J]. Ageing and Society, 2020.',
    );
    const enNone = await call<{ list: unknown[]; total: number; message: string }>(
      t,
      `${A}/searchEnReference`,
      { keyword: '养老' },
      { token },
    );
    expect(enNone.data).toEqual({
      list: [],
      total: 0,
      message: '文献库中没有与检索词相关的英文文献（演示文献库不含英文文献），不会编造英文参考文献',
    });
    const parsed = await call<{ list: { formatted: string | null }[] }>(
      t,
      `${A}/analysisReference`,
      {
        text: '[1] 陈静, 刘洋, 周杰, 吴敏. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019, 39(5): 1201-1205.\n随便一行字',
      },
      { token },
    );
    expect(parsed.data.list.map((p) => p.formatted)).toEqual([
      '陈静, 刘洋, 周杰, 等. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019, 39(5): 1201-1205.',
      null,
    ]);
  });

  it('orders the full text, writes it section by section after payment, and records tokens per order', async () => {
    const res = await call<{ orderId: string; orderNo: string; amount: string }>(
      t,
      `${A}/submitOrder`,
      { writingId },
      { token },
    );
    expect(res.code).toBe(0);
    orderId = res.data.orderId;
    const before = await call<WritingView>(t, `${A}/query`, { writingId }, { token });
    expect(before.data.status).toBe('ordered');
    // Retrieved and numbered at order time: the two related library records, not the unrelated one.
    expect(before.data.sources.map((s) => s.title).sort()).toEqual([
      '城市社区养老服务供给研究',
      '智慧养老平台的评估与优化',
    ]);
    const locked = await call(t, `${A}/combOutline`, { writingId, outline: before.data.outline }, { token });
    expect(locked.message).toBe('论文已下单，题目和大纲不能再修改');
    const early = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1${A}/download`,
      headers: { token, terminal: 'PC' },
      payload: { writingId },
    });
    expect(early.json().message).toMatch(/全文尚未生成完成/);

    await payCheckOrder(t, token, orderId);
    expect((await call<WritingView>(t, `${A}/query`, { writingId }, { token })).data.status).toBe('writing');
    await runWritingJobs();
    const done = await call<WritingView>(t, `${A}/query`, { writingId }, { token });
    expect(done.data).toMatchObject({
      status: 'done',
      progress: 100,
      sectionsWritten: leaves(before.data.outline!).length,
    });
    const full = await call<{ sections: { path: string; text: string }[] }>(
      t,
      `${A}/fullText`,
      { writingId },
      { token },
    );
    const allowed = new Set(done.data.sources.map((s) => s.n));
    for (const section of full.data.sections) {
      expect(section.text.startsWith('【沙箱示例】')).toBe(true);
      for (const m of section.text.matchAll(/\[(\d+)\]/g)) expect(allowed.has(Number(m[1]))).toBe(true);
    }
    const order = await t.orders.getOrder(orderId);
    expect(order?.status).toBe('done');
    const usage = await usageOfOrder(t.db, order!.orderNo);
    // One call per section, and one for the chart of the item that asks for a picture.
    expect(usage.calls).toBe(full.data.sections.length + 1);
    expect(usage.completionTokens).toBeGreaterThan(0);
  });

  it('downloads a .docx with chapters, the reference list and the AI-generated-content labels', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/kyfw/web/v1${A}/download`,
      headers: { token, terminal: 'PC' },
      payload: { writingId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('wordprocessingml');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const xml = new TextDecoder().decode(files['word/document.xml']);
    const text = xml.replace(/<[^>]+>/g, '');
    expect(text).toContain('第1章 绪论');
    expect(text).toContain('1.2 研究现状');
    expect(text).toContain('参考文献');
    expect(text).toContain('本文内容由人工智能生成');
    expect(text).toContain('【沙箱示例】本文为演示用模板文字');
    // The 现状分析 item asks for a picture and its text gives numbers (the sandbox's invented sample
    // data, said to be invented): a real picture, its caption below it.
    expect(text).toContain('示例数据（虚构，仅用于演示图表绘制，请替换为你的真实数据）：甲类 12 项');
    expect(text).not.toContain('［图片占位');
    const media = Object.keys(files).filter((f) => /^word\/media\/.+\.png$/.test(f));
    expect(media).toHaveLength(1);
    expect(xml).toMatch(
      /<w:drawing>.*<\/w:drawing><\/w:r><\/w:p><w:p>.*?图2-1 【沙箱示例】沙箱示例数据（虚构）/,
    );
    expect(text).toMatch(/以下 \d+ 篇均为从文献库检索到的 2 篇真实记录或你提供的文献，未编造任何文献/);
    // The formula the 结论 item asked for is a Word equation (OMML), not LaTeX text.
    const equations = xml.match(/<m:oMath>.*?<\/m:oMath>/g) ?? [];
    expect(equations.length).toBe(1);
    expect(equations[0]).toContain('<m:f>');
    expect(equations[0]).toContain('<m:nary>');
    expect(text).not.toContain('$$');
    expect(text).not.toContain('\\frac');
    // The table the 1.2 item asked for is a real Word table, its frame labelled as a sample.
    expect(xml).toContain('<w:tbl>');
    expect(text).toContain('示例表格只给出结构，没有数据');
    // Captions numbered per chapter: the 1.2 item's table is 表1-1, the 现状分析 figure 图2-1.
    expect(text).toContain('表1-1 研究现状');
    expect(text).toContain('图2-1 【沙箱示例】沙箱示例数据（虚构）');
    expect(xml).toMatch(/TOC \\[oh]/);
    const refs = [...text.matchAll(/\[(\d+)\] [^[]+?\[J\]/g)].map((m) => Number(m[1]));
    expect(refs).toEqual(refs.map((_, i) => i + 1));
    const cited = new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    for (const n of cited) expect(n).toBeLessThanOrEqual(Math.max(refs.length, 0));
    const custom = new TextDecoder().decode(files['docProps/custom.xml']);
    expect(custom).toContain('AIGC');
    expect(custom).toContain('ContentProducer');
    const header = Object.keys(files).filter((f) => f.startsWith('word/header'));
    expect(header.some((f) => new TextDecoder().decode(files[f]).includes('本文内容由人工智能生成'))).toBe(
      true,
    );
  });

  it('reads a task book into the requirements, and refuses a file that is not a document', async () => {
    const send = async (name: string, bytes: Buffer) => {
      const boundary = '----kyfwtaskbook';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/kyfw/web/v1${A}/recognitionFile`,
        headers: { token, terminal: 'PC', 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return res.json() as {
        code: number;
        message: string;
        data: { requirements: string; truncated: boolean };
      };
    };
    const ok = await send(
      'task.txt',
      Buffer.from('毕业论文任务书\n\n要求：字数不少于8000字，需包含问卷调查与数据分析。', 'utf8'),
    );
    expect(ok.code).toBe(0);
    expect(ok.data.requirements).toBe('毕业论文任务书\n要求：字数不少于8000字，需包含问卷调查与数据分析。');
    const bad = await send(
      'task.docx',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    );
    expect(bad.code).not.toBe(0);
    expect(bad.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('searches the student’s own references beside the library, listed first', async () => {
    const { token: own } = await boundUser();
    const saved = await call<WritingView>(
      t,
      `${A}/saveOrder`,
      { area: 'assignment', topic: '居家养老', title: '居家养老服务研究', targetWords: 3000 },
      { token: own },
    );
    const id = saved.data.writingId;
    await call(
      t,
      `${A}/analysisReference`,
      { writingId: id, text: '陈静. 居家养老服务满意度研究[J]. 中国老年学杂志, 2019, 39(5): 1201-1205.' },
      { token: own },
    );
    const found = await call<{ list: { title: string; origin: string }[]; total: number }>(
      t,
      `${A}/searchReference`,
      { keyword: '养老', writingId: id },
      { token: own },
    );
    expect(found.data.list.map((s) => [s.origin, s.title])).toEqual([
      ['supplied', '居家养老服务满意度研究'],
      ['library', '智慧养老平台的评估与优化'],
      ['library', '城市社区养老服务供给研究'],
    ]);
    expect(found.data.total).toBe(3);
    // Without the writing only the library's; another user's writing is refused.
    const plain = await call<{ total: number }>(
      t,
      `${A}/searchReference`,
      { keyword: '养老' },
      { token: own },
    );
    expect(plain.data.total).toBe(2);
    const other = await newUser(t);
    const peek = await call(
      t,
      `${A}/searchReference`,
      { keyword: '养老', writingId: id },
      { token: other.token },
    );
    expect(peek.message).toBe('论文不存在或已删除');
  });

  it('says so in Chinese when the LLM keeps failing, and charges nothing', async () => {
    const { token: other } = await boundUser();
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { nonsense: 100 } });
    const res = await call(t, `${A}/title`, { topic: '乡村振兴' }, { token: other });
    expect(res.message).toBe(
      'AI 生成的内容未通过检查（回答不是要求的格式），未采用，请稍后重试（本次未扣费）',
    );
    const saved = await call<WritingView>(
      t,
      `${A}/saveOrder`,
      { area: 'assignment', topic: '乡村振兴', title: '乡村振兴研究', targetWords: 3000 },
      { token: other },
    );
    await t.app.inject({
      method: 'POST',
      url: '/__dev/llm/faults',
      payload: { reset: true, serverError: 10 },
    });
    const outline = await call(t, `${A}/outline`, { writingId: saved.data.writingId }, { token: other });
    expect(outline.message).toBe('AI 服务暂时不可用，请稍后再试（本次未扣费）');
    await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: { reset: true } });
    // The free outline was not used by the failed attempt.
    expect((await call<{ free: number }>(t, `${A}/freeOutlineNumber`, {}, { token: other })).data.free).toBe(
      1,
    );
  });
});
