import { API_PREFIX, ErrorCode } from '@kyfw/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

const LIST = `${API_PREFIX}/home/article`;
const CONTENT = `${API_PREFIX}/home/articleContent`;

interface Envelope {
  code: number;
  message: string;
  data: unknown;
}

describe('industry news: /home/article and /home/articleContent', () => {
  let t: TestApp;
  const post = async (url: string, payload: object): Promise<Envelope> =>
    (await t.app.inject({ method: 'POST', url, payload })).json();

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('lists the seeded published articles with their total, newest first, and pages through them', async () => {
    const all = await post(LIST, {});
    expect(all.code).toBe(0);
    const data = all.data as { list: { slug: string; title: string; category: string }[]; total: number };
    expect(data.total).toBe(3);
    expect(data.list.map((a) => a.slug).sort()).toEqual([
      'guide/2026/read-check-report',
      'norms/2026/citation-gb-t-7714',
      'policy/2025/aigc-labelling',
    ]);
    const second = (await post(LIST, { page: 2, pageSize: 2 })).data as { list: unknown[]; total: number };
    expect(second.total).toBe(3);
    expect(second.list).toHaveLength(1);
  });

  it('filters by category and refuses an unknown one', async () => {
    const policy = (await post(LIST, { category: 'policy' })).data as {
      list: { title: string }[];
      total: number;
    };
    expect(policy.total).toBe(1);
    expect(policy.list[0]?.title).toContain('人工智能生成合成内容标识办法');
    const bad = await post(LIST, { category: 'gossip' });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.message).toBe('资讯分类不正确');
  });

  it('serves an article by its slug with its body, and hides drafts', async () => {
    const res = await post(CONTENT, { slug: 'guide/2026/read-check-report' });
    expect(res.code).toBe(0);
    const article = res.data as { title: string; bodyHtml: string; tags: string[] };
    expect(article.title).toBe('如何读懂一份论文查重报告');
    expect(article.bodyHtml).toContain('去除引用文献复制比');
    expect(article.tags).toContain('全文对照');

    await t.db
      .updateTable('articles')
      .set({ status: 'draft' })
      .where('slug', '=', 'norms/2026/citation-gb-t-7714')
      .execute();
    // Answers are cached; the console's actions drop the cache (test/news), a direct edit must too.
    t.root.services.news.cache.invalidate();
    const draft = await post(CONTENT, { slug: 'norms/2026/citation-gb-t-7714' });
    expect(draft.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    expect(((await post(LIST, {})).data as { total: number }).total).toBe(2);
  });

  it('answers an unknown slug with RESOURCE_NOT_FOUND and a Chinese message', async () => {
    const res = await post(CONTENT, { slug: 'policy/2099/no-such-article' });
    expect(res).toEqual({ code: ErrorCode.RESOURCE_NOT_FOUND, message: '该资讯不存在或已下线', data: null });
    const empty = await post(CONTENT, { slug: '' });
    expect(empty.code).toBe(ErrorCode.VALIDATION);
    expect(empty.message).toBe('请指定资讯');
  });
});
