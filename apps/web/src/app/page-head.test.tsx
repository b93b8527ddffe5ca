import { homeApi, pageRoutes, SITE_DESCRIPTION } from '@kyfw/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiAnswer, renderRoutes, setUpPageTests, stubFetch } from '../testing/test-utils';
import { routes } from './router';

setUpPageTests();

const head = () => ({
  title: document.title,
  description: document.head.querySelector('meta[name="description"]')?.getAttribute('content'),
  canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
  ogTitle: document.head.querySelector('meta[property="og:title"]')?.getAttribute('content'),
  ogType: document.head.querySelector('meta[property="og:type"]')?.getAttribute('content'),
});
const route = (name: string) => pageRoutes.find((r) => r.name === name)!;

/** The head the server wrote into the first page's HTML (decision 0018): the landing page's. */
function serverHead() {
  document.head.innerHTML = [
    '<title>科研服务网 - 论文查重 · 降重 · AI写作</title>',
    `<meta name="description" content="${SITE_DESCRIPTION}" />`,
    `<link rel="canonical" href="${window.location.origin}/" />`,
    '<meta property="og:title" content="科研服务网 - 论文查重 · 降重 · AI写作" />',
    '<meta property="og:type" content="website" />',
  ].join('');
}

describe('the page head after client-side navigation', () => {
  it('follows the route list and the article data, not the first page', async () => {
    serverHead();
    stubFetch((url) =>
      url.endsWith(homeApi.articleContent.path)
        ? apiAnswer(homeApi.articleContent, {
            slug: 'policy/2025/aigc-labelling',
            category: 'policy',
            title: '人工智能生成合成内容标识办法解读',
            summary: '2025年9月1日起施行的标识办法对学术写作意味着什么。',
            author: '科研服务网编辑部',
            source: null,
            tags: ['AIGC'],
            publishedAt: '2026-11-01T02:00:00.000Z',
            cover: null,
            bodyHtml: '<p>正文</p>',
          })
        : undefined,
    );
    const { router } = renderRoutes(routes, '/');
    await act(() => router.navigate('/searchReport'));
    await waitFor(() => expect(document.title).toBe(`${route('searchReport').title} - 科研服务网`));
    expect(head()).toMatchObject({
      description: route('searchReport').description ?? SITE_DESCRIPTION,
      canonical: `${window.location.origin}/searchReport`,
      ogTitle: route('searchReport').title,
    });

    // An article: its own title, summary and address once its data is loaded.
    await act(() => router.navigate('/industryNews/policy/2025/aigc-labelling'));
    await screen.findByText('正文');
    await waitFor(() => expect(document.title).toBe('人工智能生成合成内容标识办法解读 - 科研服务网'));
    expect(head()).toMatchObject({
      description: '2025年9月1日起施行的标识办法对学术写作意味着什么。',
      canonical: `${window.location.origin}/industryNews/policy/2025/aigc-labelling`,
      ogType: 'article',
    });

    // A page search engines may not index: its title, and no canonical link left behind.
    await act(() => router.navigate('/login'));
    await waitFor(() => expect(document.title).toBe('登录 - 科研服务网'));
    expect(head()).toMatchObject({ canonical: null, ogType: 'website', description: SITE_DESCRIPTION });

    // Back to the first page: its own head again.
    await act(() => router.navigate('/'));
    await waitFor(() => expect(document.title).toBe('科研服务网 - 论文查重 · 降重 · AI写作'));

    // A path that is no page: the 404 page's title.
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(document.title).toBe('Page Not Found'));
  });
});
