import { Link } from 'react-router';
import { industryNewsPath, paths } from '../../../config/paths';
import { useArticles } from '../api/list-articles';
import { newsTexts as t } from '../texts';
import { NewsCover } from './news-cover';

const SHOWN = 3;

/** The landing page's 行业资讯 section: the newest articles; nothing while none is published. */
export function LatestNews() {
  const articles = useArticles('', 1);
  const list = articles.data?.list.slice(0, SHOWN) ?? [];
  if (list.length === 0) return null;
  return (
    <section className="container landing-section" data-testid="latest-news">
      <header className="landing-section__head">
        <h2>{t.latestTitle}</h2>
        <p>
          <Link to={paths.industryNews}>{t.more} →</Link>
        </p>
      </header>
      <ul className="latest-news">
        {list.map((a) => (
          <li key={a.slug} className="card-surface latest-news__item">
            <NewsCover
              image={a.cover}
              category={a.category}
              sizes="(max-width: 640px) 100vw, (max-width: 1024px) 50vw, 400px"
            />
            <span className="news-list__tag">{t.categories[a.category]}</span>
            <h3 className="news-list__title">
              <Link to={industryNewsPath(...a.slug.split('/'))}>{a.title}</Link>
            </h3>
            <p className="news-list__summary">{a.summary}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
