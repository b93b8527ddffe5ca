import { type AdminArticle, consoleApi, newsAdminApi, type Staff } from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, installDomShims, renderRoutes, resetAppState, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from '../console';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const staff = (role: Staff['role'], roleText: string): Staff => ({
  username: 'wangbj',
  role,
  roleText,
  expiresAt: '2026-11-27T10:00:00.000Z',
});

const stored: AdminArticle = {
  id: '7',
  slug: 'guide/2026/self-check',
  category: 'guide',
  title: '毕业论文提交前的自查清单',
  status: 'draft',
  publishedAt: null,
  updatedAt: '2026-11-27T01:00:00.000Z',
  cover: null,
  summary: '提交前逐项核对。',
  author: '科研服务网编辑部',
  source: null,
  tags: [],
  // What the server kept of the hostile body.
  bodyHtml: '<h2>格式</h2><p>核对页码。</p>',
};

function renderDesk(role: Staff['role'], roleText: string) {
  const sent: { url: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    sent.push({ url, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff(role, roleText));
    if (url.endsWith(newsAdminApi.articleList.path))
      return apiAnswer(newsAdminApi.articleList, { list: [], total: 0 });
    if (url.endsWith(newsAdminApi.articleSave.path))
      return apiAnswer(newsAdminApi.articleSave, stored, '已保存');
    return undefined;
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/news');
  return sent;
}

describe('the console news desk', () => {
  it('is a menu entry for editors and not for other roles', async () => {
    renderDesk('editor', '编辑');
    expect(await screen.findByRole('menuitem', { name: '资讯与案例' })).toBeTruthy();
    cleanup();
    resetAppState();
    renderDesk('finance', '财务');
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '资讯与案例' })).toBeNull();
  });

  it('saves a new article and previews the body the server kept, not what was typed', async () => {
    const sent = renderDesk('editor', '编辑');
    fireEvent.click(await screen.findByRole('button', { name: '新建文章' }));
    const drawer = await screen.findByRole('dialog');
    fireEvent.change(within(drawer).getByLabelText('标题'), { target: { value: stored.title } });
    fireEvent.change(within(drawer).getByLabelText('网址'), { target: { value: stored.slug } });
    fireEvent.change(within(drawer).getByLabelText('摘要'), { target: { value: stored.summary } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'HTML' }));
    const hostile = '<h2>格式</h2><p onclick="alert(1)">核对页码。</p><script>alert(1)</script>';
    fireEvent.change(within(drawer).getByLabelText('正文'), { target: { value: hostile } });
    fireEvent.click(within(drawer).getByRole('button', { name: '保存并预览' }));

    await waitFor(() => expect(sent.some((s) => s.url.endsWith(newsAdminApi.articleSave.path))).toBe(true));
    const save = sent.find((s) => s.url.endsWith(newsAdminApi.articleSave.path))!;
    expect(save.body).toMatchObject({
      title: stored.title,
      slug: stored.slug,
      category: 'guide',
      author: '科研服务网编辑部',
      bodyHtml: hostile,
      coverId: null,
    });
    expect(save.body).not.toHaveProperty('id');
    const preview = await screen.findByTestId('article-preview');
    expect(preview.innerHTML).toContain('<p>核对页码。</p>');
    expect(preview.innerHTML).not.toMatch(/onclick|script/);
    // A draft is not published: the date line says so and when it was last saved.
    expect(preview.textContent).toContain('未发布 · 最后保存于');
    expect(preview.textContent).not.toContain('发布于 ');
    // The form now holds what the server stored.
    expect((within(drawer).getByLabelText('正文') as HTMLTextAreaElement).value).toBe(stored.bodyHtml);
  });
});
