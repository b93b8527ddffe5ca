import { sql } from '@kyfw/db';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, enqueue } from '../../src/jobs/index.ts';
import { writingJobDefinitions } from '../../src/modules/writing/writing.jobs.ts';
import {
  buildCheckApp,
  type CheckTestApp,
  call,
  grantFreeCheck,
  newUser,
  payCheckOrder,
} from '../check/check-helper.ts';

// /aiWriting/updateOrder (one section rewritten, the rest kept) and the unlimited-revisions add-on.
let t: CheckTestApp;
const A = '/aiWriting';

interface View {
  status: string;
  revisionsLeft: number | null;
  unlimitedRevisions: boolean;
  revisionsOrderId: string | null;
  revision: { path: string; state: string; message: string | null; queueAhead?: number | null } | null;
}
type Sections = { sections: { path: string; text: string }[] };

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

async function runJobs() {
  const worker = createWorker({ db: t.db, definitions: writingJobDefinitions, services: t.root.services });
  await worker.tick();
  await worker.stop();
}

async function faults(body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/__dev/llm/faults', payload: body });
  expect(res.json().code).toBe(0);
}

/** A bound student's finished draft; `picture`: the outline leaf at that path asks for a picture. */
async function finishedWriting(title: string, picture?: string) {
  const user = await newUser(t);
  await grantFreeCheck(t, user.userId);
  const token = user.token;
  const saved = await call<{ writingId: string }>(
    t,
    `${A}/saveOrder`,
    { area: 'assignment', topic: title, title, targetWords: 3000 },
    { token },
  );
  const writingId = saved.data.writingId;
  expect((await call(t, `${A}/outline`, { writingId }, { token })).code).toBe(0);
  if (picture) {
    type Item = { picture: string; children?: Item[] };
    const { outline } = (await call<{ outline: Item[] }>(t, `${A}/query`, { writingId }, { token })).data;
    const [c, s] = picture.split('.').map((n) => Number(n) - 1);
    outline[c!]!.children![s!]!.picture = '1';
    expect((await call(t, `${A}/combOutline`, { writingId, outline }, { token })).code).toBe(0);
  }
  const order = await call<{ orderId: string }>(t, `${A}/submitOrder`, { writingId }, { token });
  await payCheckOrder(t, token, order.data.orderId);
  await runJobs();
  const view = await call<View>(t, `${A}/query`, { writingId }, { token });
  expect(view.data.status).toBe('done');
  return { ...user, writingId };
}

const query = (token: string, writingId: string) => call<View>(t, `${A}/query`, { writingId }, { token });
const sections = async (token: string, writingId: string) =>
  (await call<Sections>(t, `${A}/fullText`, { writingId }, { token })).data.sections;

/** The .docx's pictures and text. */
async function docx(token: string, writingId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/kyfw/web/v1${A}/download`,
    headers: { token, terminal: 'PC' },
    payload: { writingId },
  });
  const files = unzipSync(new Uint8Array(res.rawPayload));
  return {
    pictures: Object.keys(files).filter((f) => f.startsWith('word/media/')).length,
    text: new TextDecoder().decode(files['word/document.xml']).replace(/<[^>]+>/g, ''),
  };
}

describe('revising one section of a finished draft', () => {
  it('redraws the chart of a revised section from its new text, or puts the placeholder back', async () => {
    const { token, writingId } = await finishedWriting('社区养老设施研究', '3.1');
    expect((await docx(token, writingId)).pictures).toBe(1);
    // A revision whose chart the model answers with a refusal in every field: the words of a chart
    // pass the output checks like any text, so the placeholder comes back.
    await faults({ refusal: 20, onlyTask: 'writing.figure' });
    expect((await call(t, `${A}/updateOrder`, { writingId, path: '3.1' }, { token })).code).toBe(0);
    await runJobs();
    await faults({ reset: true });
    const without = await docx(token, writingId);
    expect(without.pictures).toBe(0);
    expect(without.text).toContain('［图片占位：');
    // Revised again by the sandbox, whose text gives its marked sample numbers: the chart is back.
    expect((await call(t, `${A}/updateOrder`, { writingId, path: '3.1' }, { token })).code).toBe(0);
    await runJobs();
    const redrawn = await docx(token, writingId);
    expect(redrawn.pictures).toBe(1);
    expect(redrawn.text).toContain('图3-1 【沙箱示例】沙箱示例数据（虚构）');
  });

  it('rewrites only the chosen section, two times free, then asks for the add-on', async () => {
    const { token, writingId } = await finishedWriting('社区养老服务研究');
    const before = await sections(token, writingId);
    expect((await query(token, writingId)).data).toMatchObject({ revisionsLeft: 2, revision: null });

    const unknown = await call(t, `${A}/updateOrder`, { writingId, path: '9.9' }, { token });
    expect(unknown.message).toBe('没有找到这一节，请从目录中选择要修改的章节');
    const bad = await call(t, `${A}/updateOrder`, { writingId, path: 'abc' }, { token });
    expect(bad.message).toBe('请选择要修改的章节');
    const long = await call(
      t,
      `${A}/updateOrder`,
      { writingId, path: '1.1', instruction: '长'.repeat(501) },
      {
        token,
      },
    );
    expect(long.message).toBe('修改要求不能超过 500 个字');
    const other = await newUser(t);
    const peek = await call(t, `${A}/updateOrder`, { writingId, path: '1.1' }, { token: other.token });
    expect(peek.message).toBe('论文不存在或已删除');

    const target = before[1]!.path;
    const started = await call<View>(
      t,
      `${A}/updateOrder`,
      { writingId, path: target, instruction: '补充数据来源说明' },
      { token },
    );
    expect(started.code).toBe(0);
    expect(started.data).toMatchObject({ revisionsLeft: 1, revision: { path: target, state: 'running' } });
    const busy = await call(t, `${A}/updateOrder`, { writingId, path: before[0]!.path }, { token });
    expect(busy.message).toBe(`第 ${target} 节正在修改，请等它完成后再修改其他章节`);

    await runJobs();
    const after = await sections(token, writingId);
    expect(after.find((s) => s.path === target)!.text).toContain('按修改要求“补充数据来源说明”');
    expect(after.filter((s) => s.path !== target)).toEqual(before.filter((s) => s.path !== target));
    expect((await query(token, writingId)).data.revision).toBeNull();

    expect((await call(t, `${A}/updateOrder`, { writingId, path: target }, { token })).code).toBe(0);
    await runJobs();
    expect((await query(token, writingId)).data.revisionsLeft).toBe(0);
    const used = await call(t, `${A}/updateOrder`, { writingId, path: target }, { token });
    expect(used.code).toBe(6005);
    expect(used.message).toBe('本篇的 2 次免费修改已用完，购买“无限次修改”后可继续修改');

    // The add-on: one pending order per draft, paid, then revisions are unlimited.
    const addOn = await call<{ orderId: string; amount: string }>(
      t,
      `${A}/unlimitedRevisions/payment`,
      { writingId },
      { token },
    );
    expect(addOn.code).toBe(0);
    expect(addOn.data.amount).toBe('19.90');
    const again = await call<{ orderId: string }>(
      t,
      `${A}/unlimitedRevisions/payment`,
      { writingId },
      { token },
    );
    expect(again.data.orderId).toBe(addOn.data.orderId);
    expect((await query(token, writingId)).data.revisionsOrderId).toBe(addOn.data.orderId);
    await payCheckOrder(t, token, addOn.data.orderId);
    await runJobs();
    expect((await query(token, writingId)).data).toMatchObject({
      revisionsLeft: null,
      unlimitedRevisions: true,
      revisionsOrderId: null,
    });
    expect((await t.orders.getOrder(addOn.data.orderId))?.status).toBe('done');
    const paidAgain = await call(t, `${A}/unlimitedRevisions/payment`, { writingId }, { token });
    expect(paidAgain.message).toBe('本篇已开通无限次修改');
    for (let i = 0; i < 3; i += 1) {
      expect((await call(t, `${A}/updateOrder`, { writingId, path: target }, { token })).code).toBe(0);
      await runJobs();
    }
  });

  it('a revision waiting for a worker says 排队中 and its place, then the job runs it', async () => {
    const { token, writingId } = await finishedWriting('社区养老服务的排队');
    // Two jobs already waiting before the revision is asked for.
    const others = [];
    for (let i = 0; i < 2; i++) others.push((await enqueue(t.db, 'test.other', { i })).id);
    const path = (await sections(token, writingId))[0]!.path;
    const started = await call<View>(t, `${A}/updateOrder`, { writingId, path }, { token });
    expect(started.data.revision).toMatchObject({
      path,
      state: 'running',
      message: '排队中，前面还有 2 个任务',
      queueAhead: 2,
    });
    expect((await query(token, writingId)).data.revision).toMatchObject({
      message: '排队中，前面还有 2 个任务',
      queueAhead: 2,
    });
    const list = await call<{ list: (View & { writingId: string })[] }>(t, `${A}/list`, {}, { token });
    expect(list.data.list.find((w) => w.writingId === writingId)?.revision?.queueAhead).toBe(2);

    await t.db.updateTable('jobs').set({ status: 'succeeded' }).where('id', 'in', others).execute();
    expect((await query(token, writingId)).data.revision).toMatchObject({
      message: '排队中，即将开始',
      queueAhead: 0,
    });
    // A worker takes it: no place any more.
    await t.db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 1,
        locked_by: 'test-worker',
        locked_until: new Date(Date.now() + 60_000),
      })
      .where('name', '=', 'writing.revise-section')
      .where('status', '=', 'queued')
      .execute();
    expect((await query(token, writingId)).data.revision).toMatchObject({
      state: 'running',
      message: null,
      queueAhead: null,
    });
    await t.db
      .updateTable('jobs')
      .set({ status: 'queued', attempts: 0, locked_by: null, locked_until: null })
      .where('name', '=', 'writing.revise-section')
      .where('status', '=', 'running')
      .execute();
    await runJobs();
    const done = (await query(token, writingId)).data;
    expect(done.revision).toBeNull();
    expect(done.revisionsLeft).toBe(1);
    // A second revision of the same draft gets a job (and a place) of its own.
    const again = await call<View>(t, `${A}/updateOrder`, { writingId, path }, { token });
    expect(again.data.revision).toMatchObject({
      state: 'running',
      message: '排队中，即将开始',
      queueAhead: 0,
    });
    await runJobs();
    expect((await query(token, writingId)).data).toMatchObject({ revision: null, revisionsLeft: 0 });
  });

  it('refuses a draft that is not finished, and the add-on before the full text', async () => {
    const user = await newUser(t);
    const saved = await call<{ writingId: string }>(
      t,
      `${A}/saveOrder`,
      { area: 'assignment', topic: '乡村教育', title: '乡村教育研究', targetWords: 3000 },
      { token: user.token },
    );
    const writingId = saved.data.writingId;
    const res = await call(t, `${A}/updateOrder`, { writingId, path: '1' }, { token: user.token });
    expect(res.message).toBe('全文生成完成后才能修改章节');
    const pay = await call(t, `${A}/unlimitedRevisions/payment`, { writingId }, { token: user.token });
    expect(pay.message).toBe('全文生成完成后才能修改章节');
  });

  it('keeps the old text and gives the revision back when the LLM fails for good', async () => {
    const { token, writingId } = await finishedWriting('数字乡村治理研究');
    const before = await sections(token, writingId);
    expect((await call(t, `${A}/updateOrder`, { writingId, path: before[0]!.path }, { token })).code).toBe(0);
    await faults({ serverError: 100 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await sql`update jobs set run_at = now() - interval '1 second'
        where name = 'writing.revise-section' and status = 'queued'`.execute(t.db);
      await runJobs();
    }
    await faults({ reset: true });
    const view = (await query(token, writingId)).data;
    expect(view).toMatchObject({
      revisionsLeft: 2,
      revision: { state: 'failed', message: '本节修改失败，原文未改动，本次不计入修改次数，请稍后再试' },
    });
    expect(await sections(token, writingId)).toEqual(before);
    // A new revision may start after the failed one.
    expect((await call(t, `${A}/updateOrder`, { writingId, path: before[0]!.path }, { token })).code).toBe(0);
  });
});
