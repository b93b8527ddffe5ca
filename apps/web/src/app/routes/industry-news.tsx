import { Button, Spin } from 'antd';
import { useParams } from 'react-router';
import { PageHero } from '../../components/page/page-hero';
import { services } from '../../config/services';
import { isArticleNotFound, NewsArticle, NewsList, newsTexts, useArticle } from '../../features/news';
import { usePageHead } from '../page-head';
import { NotFoundPage } from './errors';

/**
 * /industryNews and /industryNews/{industryNews}: the parameter is a catch-all of one or more
 * segments, the article's slug (e.g. guide/2026/read-check-report). An unknown slug is the 404 page.
 */
export default function IndustryNewsPage() {
  const slug = (useParams()['*'] ?? '').split('/').filter(Boolean).join('/');
  const article = useArticle(slug);
  const shown = slug ? article.data : undefined;
  // The article's own head once it is loaded (the route's, 行业资讯, until then).
  usePageHead(
    shown
      ? {
          title: shown.title,
          description: shown.summary,
          canonicalPath: `/industryNews/${shown.slug}`,
          type: 'article',
        }
      : null,
  );
  if (slug && isArticleNotFound(article.error)) return <NotFoundPage />;
  return (
    <div className="service-page">
      <PageHero
        eyebrow={newsTexts.eyebrow}
        title={services.industryNews.title}
        description={services.industryNews.description}
      />
      <div className="container service-page__body">
        {!slug ? (
          <NewsList />
        ) : article.data ? (
          <NewsArticle article={article.data} />
        ) : article.isError ? (
          <section className="card-surface">
            <p className="muted">
              {newsTexts.loadFailed} <Button onClick={() => article.refetch()}>{newsTexts.retry}</Button>
            </p>
          </section>
        ) : (
          <Spin />
        )}
      </div>
    </div>
  );
}
