import { type ArticleSummary, homeApi, type NewsImage } from '@kyfw/contracts';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiAnswer, installDomShims, renderRoutes, resetAppState, stubFetch } from '../../testing/test-utils';
import { CasePhotos, NewsList } from '.';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const image = (id: string): NewsImage => ({
  id,
  src: `/media/news/${id}/w1024.webp`,
  srcset: `/media/news/${id}/w320.webp 320w, /media/news/${id}/w640.webp 640w, /media/news/${id}/w1024.webp 1024w`,
  width: 1024,
  height: 576,
  ogSrc: `/media/news/${id}/og.jpg`,
});
const ID = '0b6a3f7e-1111-4222-8333-944445555666';

const article = (slug: string, title: string, cover: NewsImage | null): ArticleSummary => ({
  slug,
  category: 'guide',
  title,
  summary: '摘要',
  author: '科研服务网编辑部',
  source: null,
  tags: [],
  publishedAt: '2026-11-26T00:00:00.000Z',
  cover,
});

describe('industry news covers', () => {
  it('lists each article with its cover at the server’s widths, and a placeholder when it has none', async () => {
    stubFetch((url) =>
      url.endsWith('/home/article')
        ? apiAnswer(homeApi.article, {
            total: 2,
            list: [article('guide/2026/a', '有封面', image(ID)), article('guide/2026/b', '无封面', null)],
          })
        : undefined,
    );
    renderRoutes([{ path: '/industryNews', element: <NewsList /> }], '/industryNews');
    await screen.findByText('有封面');
    const items = screen.getAllByTestId('news-item');
    const img = items[0]!.querySelector('img.news-cover')!;
    expect(img.getAttribute('srcset')).toBe(image(ID).srcset);
    expect(img.getAttribute('sizes')).toBe('(max-width: 640px) 100vw, 200px');
    expect(img.getAttribute('width')).toBe('1024');
    expect(items[1]!.querySelector('img')).toBeNull();
    expect(items[1]!.querySelector('.news-cover--placeholder')?.textContent).toBe('查重与写作指南');
    expect(screen.getByText('共 2 条')).toBeTruthy();
  });

  it('shows the case photos the server answers, linked to their pages, and nothing when there are none', async () => {
    let photos: { id: string; title: string; caption: string; linkPath: string | null; image: NewsImage }[] =
      [];
    stubFetch((url) => (url.endsWith('/home/casePhoto') ? apiAnswer(homeApi.casePhoto, photos) : undefined));
    const empty = renderRoutes([{ path: '/', element: <CasePhotos /> }], '/');
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    expect(screen.queryByTestId('case-photos')).toBeNull();
    empty.unmount();

    photos = [{ id: '1', title: '查重报告样例', caption: '逐段对照', linkPath: '/check', image: image(ID) }];
    resetAppState();
    renderRoutes([{ path: '/', element: <CasePhotos /> }], '/');
    const section = await screen.findByTestId('case-photos');
    expect(section.querySelector('a')?.getAttribute('href')).toBe('/check');
    expect(section.querySelector('img')?.getAttribute('alt')).toBe('查重报告样例');
    expect(section.textContent).toContain('逐段对照');
  });
});
