import { ARTICLE_CATEGORIES, type ArticleCategory, formatPaginationTotal } from '@kyfw/contracts';
import { Button, Pagination, Segmented, Spin } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { industryNewsPath } from '../../../config/paths';
import { NEWS_PAGE_SIZE, useArticles } from '../api/list-articles';
import { newsTexts as t } from '../texts';
import { NewsCover } from './news-cover';

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('zh-CN', { year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** /industryNews: the categories, a page of articles and the pagination (共 {0} 条). */
export function NewsList() {
  const [category, setCategory] = useState<ArticleCategory | ''>('');
  const [page, setPage] = useState(1);
  const articles = useArticles(category, page);
  const options = [
    { label: t.all, value: '' },
    ...ARTICLE_CATEGORIES.map((c) => ({ label: t.categories[c], value: c })),
  ];
  return (
    <section className="card-surface news-list" data-testid="news-list">
      <div className="news-list__head">
        <h2 className="section-title">{t.listTitle}</h2>
        <Segmented
          options={options}
          value={category}
          onChange={(value) => {
            setCategory(value as ArticleCategory | '');
            setPage(1);
          }}
        />
      </div>
      {articles.isError ? (
        <p className="muted">
          {t.loadFailed} <Button onClick={() => articles.refetch()}>{t.retry}</Button>
        </p>
      ) : articles.isPending ? (
        <Spin />
      ) : articles.data.list.length === 0 ? (
        <p className="muted">{t.empty}</p>
      ) : (
        <ul className="news-list__items">
          {articles.data.list.map((a) => (
            <li key={a.slug} className="news-list__item news-list__item--with-cover" data-testid="news-item">
              <Link to={industryNewsPath(...a.slug.split('/'))} tabIndex={-1} aria-hidden="true">
                <NewsCover image={a.cover} category={a.category} sizes="(max-width: 640px) 100vw, 200px" />
              </Link>
              <div>
                <p className="news-list__meta">
                  <span className="news-list__tag">{t.categories[a.category]}</span>
                  <span>{formatDate(a.publishedAt)}</span>
                </p>
                <h3 className="news-list__title">
                  <Link to={industryNewsPath(...a.slug.split('/'))}>{a.title}</Link>
                </h3>
                <p className="news-list__summary">{a.summary}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {articles.data && articles.data.total > 0 ? (
        <Pagination
          className="news-list__pager"
          current={page}
          pageSize={NEWS_PAGE_SIZE}
          total={articles.data.total}
          onChange={setPage}
          showSizeChanger={false}
          showTotal={(value) => formatPaginationTotal(value)}
        />
      ) : null}
    </section>
  );
}
