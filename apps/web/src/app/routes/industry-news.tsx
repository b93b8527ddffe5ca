import { Link, useParams } from 'react-router';
import { PageHero } from '../../components/page/page-hero';
import { paths } from '../../config/paths';
import { services } from '../../config/services';
import { pageTitle } from '../texts';

/**
 * /industryNews and /industryNews/{industryNews}: the parameter is a catch-all of one or more
 * segments (e.g. a category and an article id). List and article come with the news issue.
 */
export default function IndustryNewsPage() {
  const splat = useParams()['*'] ?? '';
  const segments = splat.split('/').filter(Boolean);
  const isArticle = segments.length > 0;
  return (
    <div className="service-page">
      <title>{pageTitle(services.industryNews.title)}</title>
      <PageHero
        eyebrow="科研服务网 · 资讯"
        title={services.industryNews.title}
        description={services.industryNews.description}
      />
      <div className="container service-page__body">
        {isArticle ? (
          <article className="card-surface news-article" data-testid="news-article">
            <p className="news-article__crumbs">
              <Link to={paths.industryNews}>{services.industryNews.title}</Link>
              {segments.map((s) => (
                <span key={s}> / {s}</span>
              ))}
            </p>
            <p className="muted">资讯正文即将上线，敬请期待。</p>
          </article>
        ) : (
          <section className="card-surface" data-testid="news-list">
            <h2 className="section-title">最新资讯</h2>
            <p className="muted">
              资讯栏目正在整理中，将陆续发布学术动态、政策解读、写作指南与查重知识等方面的文章。
            </p>
          </section>
        )}
      </div>
    </div>
  );
}
