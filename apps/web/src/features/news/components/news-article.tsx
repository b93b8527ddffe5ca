import type { Article } from '@kyfw/contracts';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { newsTexts as t } from '../texts';
import { NewsCover } from './news-cover';

/**
 * One article. Its body is HTML the server sanitised when an editor saved it (modules/news/sanitize.ts).
 * `unpublishedSavedAt`: the console's preview of an article readers cannot see yet; the date line then
 * says so and gives when it was last saved instead of a publish date.
 */
export function NewsArticle({
  article,
  unpublishedSavedAt,
}: {
  article: Article;
  unpublishedSavedAt?: string;
}) {
  return (
    <article className="card-surface news-article" data-testid="news-article">
      <p className="news-article__crumbs">
        <Link to={paths.industryNews}>{t.back}</Link> / {t.categories[article.category]}
      </p>
      <h1 className="news-article__title">{article.title}</h1>
      <p className="news-article__meta">
        {t.author}：{article.author} ·{' '}
        {unpublishedSavedAt
          ? `${t.unpublished} · ${t.lastSaved} ${new Date(unpublishedSavedAt).toLocaleString('zh-CN')}`
          : `${t.published} ${new Date(article.publishedAt).toLocaleDateString('zh-CN')}`}
        {article.source ? ` · ${t.source}：${article.source}` : ''}
      </p>
      {article.cover ? (
        <div className="news-article__cover">
          <NewsCover
            image={article.cover}
            category={article.category}
            sizes="(max-width: 820px) 100vw, 760px"
            alt={article.title}
            eager
          />
        </div>
      ) : null}
      <div
        className="news-article__body"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server's allow-list when saved (modules/news/sanitize.ts)
        dangerouslySetInnerHTML={{ __html: article.bodyHtml }}
      />
      {article.tags.length > 0 ? (
        <p className="news-article__tags">
          {article.tags.map((tag) => (
            <span key={tag} className="news-list__tag">
              {tag}
            </span>
          ))}
        </p>
      ) : null}
    </article>
  );
}
