import {
  consoleApi,
  consoleLibraryApi,
  type LibraryDocument,
  type LibraryImport,
  type LibraryStats,
  type Staff,
} from '@kyfw/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, resetAppState, setUpPageTests, stubFetch } from '../../testing/test-utils';
import { ConsoleApp } from '../console';

setUpPageTests();

const staff = (role: Staff['role'], roleText: string): Staff => ({
  username: 'wangbj',
  role,
  roleText,
  expiresAt: '2026-11-27T10:00:00.000Z',
});

const STATS: LibraryStats = {
  collections: [
    {
      collection: 'journal',
      name: '学术期刊库',
      documents: 18190,
      chars: 5_432_100,
      lastAddedAt: '2026-11-26T02:00:00.000Z',
    },
    { collection: 'thesis', name: '学位论文库', documents: 0, chars: 0, lastAddedAt: null },
    { collection: 'web', name: '互联网资源库', documents: 0, chars: 0, lastAddedAt: null },
    {
      collection: 'user',
      name: '用户授权论文库',
      documents: 2,
      chars: 40_000,
      lastAddedAt: '2026-11-27T01:00:00.000Z',
    },
  ],
  documents: 18192,
  chars: 5_472_100,
  goods: [
    { goodsId: 'check_undergrad', name: '本科毕业论文查重', onSale: true, reason: null },
    {
      goodsId: 'check_master',
      name: '硕博学位论文查重',
      onSale: false,
      reason: '硕博学位论文查重须比对学位论文库',
    },
  ],
};

const running: LibraryImport = {
  importId: '8f9c1a52-7a57-4c3e-9d2e-2f1f0f0f0f01',
  fileName: 'theses.jsonl',
  fileBytes: 2048,
  collection: 'thesis',
  status: 'running',
  progress: 40,
  progressText: '正在导入 4 / 10 篇',
  summary: null,
  error: null,
  username: 'wangbj',
  createdAt: '2026-11-27T03:00:00.000Z',
  finishedAt: null,
};
const succeeded: LibraryImport = {
  ...running,
  status: 'succeeded',
  progress: 100,
  progressText: null,
  summary: {
    read: 10,
    added: 10,
    skippedExisting: 0,
    skippedDuplicates: 0,
    skippedInvalid: 0,
    characters: 9000,
  },
  finishedAt: '2026-11-27T03:01:00.000Z',
};
const failed: LibraryImport = {
  ...running,
  importId: '8f9c1a52-7a57-4c3e-9d2e-2f1f0f0f0f02',
  fileName: 'bad.jsonl',
  status: 'failed',
  progress: 2,
  progressText: null,
  error: '文件有 1 处问题，未导入任何文档：第 2 行：不是合法的 JSON',
};

const DOC: LibraryDocument = {
  id: 'csl_papers:17',
  title: '稻田土壤微生物群落结构研究',
  authors: ['王立', '李青'],
  year: 2019,
  source: '土壤学报',
  discipline: null,
  collection: 'journal',
  chars: 820,
  origin: 'import',
  addedAt: '2026-11-26T02:00:00.000Z',
};

function renderPage(role: Staff['role'], roleText: string, imports: LibraryImport[][] = [[failed]]) {
  const sent: { url: string; body: unknown }[] = [];
  let importCalls = 0;
  stubFetch((url, init) => {
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    sent.push({ url, body });
    if (url.endsWith(consoleApi.me.path)) return apiAnswer(consoleApi.me, staff(role, roleText));
    if (url.endsWith(consoleLibraryApi.stats.path)) return apiAnswer(consoleLibraryApi.stats, STATS);
    if (url.endsWith(consoleLibraryApi.imports.path)) {
      const list = imports[Math.min(importCalls++, imports.length - 1)]!;
      return apiAnswer(consoleLibraryApi.imports, { list });
    }
    if (url.endsWith(consoleLibraryApi.importFile.path))
      return apiAnswer(
        consoleLibraryApi.importFile,
        { ...running, status: 'queued', progress: 0 },
        '已开始导入',
      );
    if (url.endsWith(consoleLibraryApi.search.path)) {
      const collection = (body as { collection?: string }).collection;
      return apiAnswer(
        consoleLibraryApi.search,
        collection === 'user' ? { total: 0, list: [] } : { total: 1, list: [DOC] },
      );
    }
    if (url.endsWith(consoleLibraryApi.remove.path))
      return apiAnswer(consoleLibraryApi.remove, null, '已从比对库删除');
    return undefined;
  });
  renderRoutes([{ path: '/admin/*', element: <ConsoleApp /> }], '/admin/library');
  return sent;
}

describe('the console comparison library', () => {
  it('is a menu entry for admin and support, not for the other roles', async () => {
    renderPage('support', '客服');
    expect(await screen.findByRole('menuitem', { name: '比对库' })).toBeTruthy();
    cleanup();
    resetAppState();
    renderPage('fulfilment', '履约');
    expect(await screen.findByText('当前角色无权查看此页面')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: '比对库' })).toBeNull();
  });

  it('states the size of each collection, the goods on sale, and a failed import with its reason', async () => {
    renderPage('admin', '管理员');
    const stats = await screen.findByTestId('library-stats');
    await waitFor(() => expect(within(stats).getByText('18,190')).toBeTruthy());
    expect(within(stats).getAllByText('暂无收录')).toHaveLength(2);
    expect(within(stats).getByText('18,192')).toBeTruthy();
    expect(within(stats).getByText('暂停销售')).toBeTruthy();
    expect(within(stats).getByText('在售')).toBeTruthy();
    expect(await screen.findByText('文件有 1 处问题，未导入任何文档：第 2 行：不是合法的 JSON')).toBeTruthy();
    expect(screen.getByText('稻田土壤微生物群落结构研究')).toBeTruthy();
  });

  it('sends the file with its collection, then shows the import’s progress until it is done', async () => {
    const sent = renderPage('admin', '管理员', [[failed], [running, failed], [succeeded, failed]]);
    await screen.findByTestId('library-stats');
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File(['{"id":1,"text":"正文"}\n'], 'theses.jsonl', { type: 'application/octet-stream' });
    fireEvent.change(input, { target: { files: [file] } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '导入到' }));
    fireEvent.click(await screen.findByTitle('学位论文库'));
    const startButton = screen.getByRole('button', { name: '开始导入' });
    await waitFor(() => expect(startButton.hasAttribute('disabled')).toBe(false));
    fireEvent.click(startButton);

    await waitFor(() =>
      expect(sent.some((s) => s.url.endsWith(consoleLibraryApi.importFile.path))).toBe(true),
    );
    const form = sent.find((s) => s.url.endsWith(consoleLibraryApi.importFile.path))!.body as FormData;
    expect(form.get('collection')).toBe('thesis');
    expect((form.get('file') as File).name).toBe('theses.jsonl');
    expect(await screen.findByText('正在导入 4 / 10 篇')).toBeTruthy();
    // Polled while it runs: the next answer has it done, with what it did.
    expect(
      await screen.findByText('新增 10 篇，已存在跳过 0 篇，重复正文跳过 0 篇', undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
  });

  it('refuses a file that is not .jsonl, .jsonl.gz or .zip before sending it', async () => {
    const sent = renderPage('admin', '管理员');
    await screen.findByTestId('library-stats');
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'paper.pdf')] } });
    expect(await screen.findByText('只能导入 .jsonl、.jsonl.gz 或 .zip 文件')).toBeTruthy();
    expect(screen.getByRole('button', { name: '开始导入' }).hasAttribute('disabled')).toBe(true);
    expect(sent.some((s) => s.url.endsWith(consoleLibraryApi.importFile.path))).toBe(false);
  });

  it('lets an admin remove a document after confirming', async () => {
    const sent = renderPage('admin', '管理员');
    await screen.findByText('稻田土壤微生物群落结构研究');
    fireEvent.click(document.querySelector('.ant-table-row .ant-btn-dangerous') as HTMLElement);
    await waitFor(() => expect(document.querySelector('.ant-popconfirm')).not.toBeNull());
    const confirm = document.querySelector('.ant-popconfirm') as HTMLElement;
    expect(within(confirm).getByText(/删除后新的检测不再与它比对/)).toBeTruthy();
    fireEvent.click(confirm.querySelector('.ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(sent.some((s) => s.url.endsWith(consoleLibraryApi.remove.path))).toBe(true));
    expect(sent.find((s) => s.url.endsWith(consoleLibraryApi.remove.path))!.body).toEqual({
      id: 'csl_papers:17',
    });
  });

  it('shows support the library without import or remove', async () => {
    renderPage('support', '客服');
    expect(await screen.findByText('稻田土壤微生物群落结构研究')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '开始导入' })).toBeNull();
    expect(document.querySelector('.ant-table-row .ant-btn-dangerous')).toBeNull();
  });
});
