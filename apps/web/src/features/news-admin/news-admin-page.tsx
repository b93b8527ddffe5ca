import type { AdminArticleRow, ArticleStatus } from '@kyfw/contracts';
import { Button, Card, Input, Popconfirm, Segmented, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../stores/ui-store';
import './news-admin.css';
import { NewsCover, newsTexts } from '../news';
import { ArticleEditor } from './article-editor';
import { CasePhotosPanel } from './case-photos-panel';
import { useAdminArticles, useSetPublished } from './news-admin-api';
import { newsAdminTexts as t } from './texts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN', { hour12: false }) : '—');

/** /admin/news: the news desk — articles (write, publish, take down) and the landing page's case photos. */
export function NewsAdminPage() {
  return (
    <Card>
      <Tabs
        items={[
          { key: 'articles', label: t.tabs.articles, children: <ArticlesPanel /> },
          { key: 'photos', label: t.tabs.photos, children: <CasePhotosPanel /> },
        ]}
      />
    </Card>
  );
}

function ArticlesPanel() {
  const [filter, setFilter] = useState<{
    status?: ArticleStatus;
    keyword?: string;
    page: number;
    pageSize: number;
  }>({
    page: 1,
    pageSize: 20,
  });
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const articles = useAdminArticles(filter);
  const setPublished = useSetPublished();

  const toggle = (row: AdminArticleRow) =>
    setPublished
      .mutateAsync({ id: row.id, published: row.status !== 'published' })
      .then((a) => toast.success(a.status === 'published' ? t.published : t.unpublished))
      .catch(() => undefined);

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Segmented
            value={filter.status ?? ''}
            options={[
              { label: t.status.all, value: '' },
              { label: t.status.draft, value: 'draft' },
              { label: t.status.published, value: 'published' },
            ]}
            onChange={(v) =>
              setFilter((f) => ({ ...f, page: 1, status: (v || undefined) as ArticleStatus | undefined }))
            }
          />
          <Input.Search
            allowClear
            placeholder={t.search}
            style={{ width: 240 }}
            onSearch={(keyword) => setFilter((f) => ({ ...f, page: 1, keyword }))}
          />
        </Space>
        <Button type="primary" onClick={() => setEditing({ id: null })}>
          {t.newArticle}
        </Button>
      </Space>
      <Table<AdminArticleRow>
        rowKey="id"
        loading={articles.isFetching}
        dataSource={articles.data?.list ?? []}
        pagination={{
          current: filter.page,
          pageSize: filter.pageSize,
          total: articles.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (page) => setFilter((f) => ({ ...f, page })),
        }}
        columns={[
          {
            title: t.columns.cover,
            width: 120,
            render: (_, row) => <NewsCover image={row.cover} category={row.category} sizes="100px" />,
          },
          {
            title: t.columns.title,
            render: (_, row) => (
              <div>
                <div>{row.title}</div>
                <div className="muted" style={{ fontSize: 12 }}>
                  /industryNews/{row.slug}
                </div>
              </div>
            ),
          },
          { title: t.columns.category, width: 130, render: (_, row) => newsTexts.categories[row.category] },
          {
            title: t.columns.status,
            width: 90,
            render: (_, row) =>
              row.status === 'published' ? (
                <Tag color="green">{t.status.published}</Tag>
              ) : (
                <Tag>{t.status.draft}</Tag>
              ),
          },
          { title: t.columns.publishedAt, width: 170, render: (_, row) => when(row.publishedAt) },
          { title: t.columns.updatedAt, width: 170, render: (_, row) => when(row.updatedAt) },
          {
            title: t.columns.actions,
            width: 200,
            render: (_, row) => (
              <Space size={4}>
                <Button size="small" onClick={() => setEditing({ id: row.id })}>
                  {t.edit}
                </Button>
                <Popconfirm
                  title={row.status === 'published' ? t.confirmUnpublish : t.confirmPublish}
                  onConfirm={() => toggle(row)}
                >
                  <Button
                    size="small"
                    type={row.status === 'published' ? 'default' : 'primary'}
                    ghost={row.status !== 'published'}
                  >
                    {row.status === 'published' ? t.unpublish : t.publish}
                  </Button>
                </Popconfirm>
                {row.status === 'published' ? (
                  <a href={`/industryNews/${row.slug}`} target="_blank" rel="noreferrer">
                    {t.view}
                  </a>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <ArticleEditor id={editing?.id ?? null} open={editing !== null} onClose={() => setEditing(null)} />
    </>
  );
}
