import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker, defineJob } from '../../src/jobs/index.ts';
import { reductionRewriteJob } from '../../src/modules/reduction/reduction.jobs.ts';
import { buildCheckApp, type CheckTestApp, call, newUser, payCheckOrder } from '../check/check-helper.ts';
import { R, runRewriteJobs } from './reduction-helper.ts';

// A rewrite whose process dies mid-way (after the first of three paragraphs) is taken up again by
// another worker once the dead one's lease runs out: it continues after the last saved paragraph
// (the saved one is not asked for again), finishes, and the order is delivered — nothing lost.

let t: CheckTestApp;

const TEXT = [
  '研究表明，随着互联网技术的不断发展，在线教育平台的用户规模显著扩大，提高教学质量成为平台发展的重要问题。',
  '通过对平台数据进行分析，可以发现学习者的参与程度对学习效果具有重要影响，平台需要采用有效方法促进持续参与。',
  '本文以某高校2021年的课程数据为例，分析了学习者参与的主要影响因素，并提出了相应的改进建议和实施路径。',
].join('\n');

beforeAll(async () => {
  t = await buildCheckApp();
});
afterAll(async () => {
  await t.close();
});

/** The rewrite job, but the process "dies" when it reaches the second paragraph. */
const dyingRewrite = defineJob({
  ...reductionRewriteJob,
  handler: (ctx) =>
    reductionRewriteJob.handler({
      ...ctx,
      reportProgress: async (percent, text) => {
        if (text === '正在改写第 2/3 段') throw new Error('process killed');
        await ctx.reportProgress(percent, text);
      },
    }),
});

async function row(id: string) {
  return t.db.selectFrom('reductions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('a reduction interrupted mid-way', () => {
  it('is finished by the next worker after a restart, keeping what was saved', async () => {
    const { token } = await newUser(t);
    const sub = (
      await call<{ reductionId: string; orderId: string; paragraphs: number }>(
        t,
        `${R}/submitContent`,
        { text: TEXT },
        { token },
      )
    ).data;
    expect(sub.paragraphs).toBe(3);
    await payCheckOrder(t, token, sub.orderId);

    const first = createWorker({ db: t.db, definitions: [dyingRewrite], services: t.root.services });
    await first.tick();
    await first.stop();
    const interrupted = await row(sub.reductionId);
    expect(interrupted.status).toBe('rewriting');
    const saved = interrupted.results as { index: number; after: string; attempts: number }[];
    expect(saved).toHaveLength(1);
    const mid = await call<{ status: string; progress: number }>(
      t,
      `${R}/query`,
      { reductionId: sub.reductionId },
      { token },
    );
    expect(mid.data.status).toBe('rewriting');
    expect(mid.data.progress).toBeGreaterThan(1);

    // The dead process held the job: running, its lease expired. The saved paragraph is marked so
    // that a second rewrite of it would show.
    await t.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead-worker', locked_until: new Date(0), run_at: new Date(0) })
      .where('dedupe_key', '=', `reduction:${sub.orderId}`)
      .execute();
    await t.db
      .updateTable('reductions')
      .set({ results: JSON.stringify([{ ...saved[0]!, attempts: 99 }]) })
      .where('id', '=', sub.reductionId)
      .execute();

    expect(await runRewriteJobs(t)).toHaveLength(1);
    const done = await row(sub.reductionId);
    expect(done.status).toBe('done');
    const results = done.results as { index: number; after: string; attempts: number; outcome: string }[];
    expect(results.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    expect(results.find((r) => r.index === saved[0]!.index)).toMatchObject({
      after: saved[0]!.after,
      attempts: 99,
    });
    const view = await call<{ status: string; items: { outcome: string }[] }>(
      t,
      `${R}/txtWeightResult`,
      { reductionId: sub.reductionId },
      { token },
    );
    expect(view.data.status).toBe('done');
    expect(view.data.items).toHaveLength(3);
    const order = await call<{ status: string }>(t, '/order/detail', { orderId: sub.orderId }, { token });
    expect(order.data.status).toBe('done');
  });
});
