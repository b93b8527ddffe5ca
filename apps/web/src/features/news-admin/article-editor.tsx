import { type AdminArticle, ARTICLE_CATEGORIES, ARTICLE_RULES, type NewsImage } from '@kyfw/contracts';
import { Alert, Button, Drawer, Form, Input, Modal, Select, Space, Spin, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../stores/ui-store';
import { NewsArticle, NewsCover, newsTexts } from '../news';
import { BodyEditor } from './body-editor';
import { type ArticleInput, uploadNewsImage, useAdminArticle, useSaveArticle } from './news-admin-api';
import { newsAdminTexts as t } from './texts';

type Values = Omit<ArticleInput, 'id' | 'coverId'>;

const EMPTY: Partial<Values> = { category: 'guide', author: '科研服务网编辑部', tags: [], bodyHtml: '' };

/** The slug an editor starts from: the category and the year, then a name of their choosing. */
const slugStart = (category: string) => `${category}/${new Date().getFullYear()}/`;

/**
 * Writes or changes one article (`id` null: a new draft). Saving sends the form; the server answers
 * the article as stored (body sanitised), which the preview shows exactly as readers will see it.
 */
export function ArticleEditor({
  id,
  open,
  onClose,
}: {
  id: string | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const article = useAdminArticle(id);
  const save = useSaveArticle();
  const [savedId, setSavedId] = useState<string | null>(id);
  const [cover, setCover] = useState<NewsImage | null>(null);
  const [uploading, setUploading] = useState(false);
  const [preview, setPreview] = useState<AdminArticle | null>(null);

  useEffect(() => {
    if (!open) return;
    setSavedId(id);
    if (!id) {
      form.resetFields();
      form.setFieldsValue({ ...EMPTY, slug: slugStart('guide') });
      setCover(null);
    } else if (article.data) {
      const a = article.data;
      form.setFieldsValue({
        title: a.title,
        category: a.category,
        slug: a.slug,
        summary: a.summary,
        author: a.author,
        source: a.source ?? '',
        tags: a.tags,
        bodyHtml: a.bodyHtml,
      });
      setCover(a.cover);
    }
  }, [open, id, article.data, form]);

  async function submit(thenPreview: boolean) {
    const values = await form.validateFields();
    const stored = await save
      .mutateAsync({ ...values, ...(savedId ? { id: savedId } : {}), coverId: cover?.id ?? null })
      .catch(() => undefined);
    if (!stored) return;
    setSavedId(stored.id);
    // What the server kept (the sanitised body) goes back into the form.
    form.setFieldsValue({ bodyHtml: stored.bodyHtml, slug: stored.slug });
    toast.success(t.saved);
    if (thenPreview) setPreview(stored);
  }

  async function onCover(file: File) {
    setUploading(true);
    try {
      setCover(await uploadNewsImage(file));
    } catch {
      // The request layer has shown the server's message.
    } finally {
      setUploading(false);
    }
  }

  const required = (label: string) => [{ required: true, whitespace: true, message: t.required(label) }];
  return (
    <Drawer
      title={id ? t.editorTitleEdit : t.editorTitleNew}
      width={920}
      open={open}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => submit(true)} loading={save.isPending}>
            {t.saveAndPreview}
          </Button>
          <Button
            type="primary"
            onClick={() => submit(false)}
            loading={save.isPending}
            data-testid="article-save"
          >
            {t.save}
          </Button>
        </Space>
      }
    >
      {id && article.isPending ? (
        <Spin />
      ) : (
        <Form form={form} name="article" layout="vertical" requiredMark={false} initialValues={EMPTY}>
          <Form.Item name="title" label={t.fields.title} rules={required(t.fields.title)}>
            <Input maxLength={ARTICLE_RULES.titleMax} showCount />
          </Form.Item>
          <Space.Compact block>
            <Form.Item name="category" label={t.fields.category} style={{ width: 200 }}>
              <Select
                options={ARTICLE_CATEGORIES.map((c) => ({ value: c, label: newsTexts.categories[c] }))}
                onChange={(category: string) => {
                  const slug = String(form.getFieldValue('slug') ?? '');
                  if (!savedId && /^[a-z]+\/[0-9]{4}\/$/.test(slug))
                    form.setFieldValue('slug', slugStart(category));
                }}
              />
            </Form.Item>
            <Form.Item
              name="slug"
              label={t.fields.slug}
              extra={t.fields.slugHelp}
              style={{ flex: 1, marginLeft: 12 }}
              rules={[
                ...required(t.fields.slug),
                { pattern: ARTICLE_RULES.slugPattern, message: ARTICLE_RULES.slugMessage },
              ]}
            >
              <Input addonBefore="/industryNews/" maxLength={ARTICLE_RULES.slugMax} />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            name="summary"
            label={t.fields.summary}
            extra={t.fields.summaryHelp}
            rules={required(t.fields.summary)}
          >
            <Input.TextArea
              maxLength={ARTICLE_RULES.summaryMax}
              showCount
              autoSize={{ minRows: 2, maxRows: 4 }}
            />
          </Form.Item>
          <Space.Compact block>
            <Form.Item
              name="author"
              label={t.fields.author}
              rules={required(t.fields.author)}
              style={{ width: 260 }}
            >
              <Input maxLength={ARTICLE_RULES.authorMax} />
            </Form.Item>
            <Form.Item name="source" label={t.fields.source} style={{ flex: 1, marginLeft: 12 }}>
              <Input maxLength={ARTICLE_RULES.sourceMax} />
            </Form.Item>
          </Space.Compact>
          <Form.Item name="tags" label={t.fields.tags} extra={t.fields.tagsHelp}>
            <Select mode="tags" maxCount={ARTICLE_RULES.tagsMax} open={false} tokenSeparators={[',', '，']} />
          </Form.Item>
          <Form.Item label={t.fields.cover} extra={t.fields.coverHelp}>
            <div className="news-admin__cover">
              <div className="news-admin__cover-image">
                <NewsCover image={cover} category={form.getFieldValue('category') ?? 'guide'} sizes="240px" />
              </div>
              <Space direction="vertical">
                <Upload
                  accept="image/png,image/jpeg,image/webp"
                  showUploadList={false}
                  beforeUpload={(file) => {
                    void onCover(file);
                    return false;
                  }}
                >
                  <Button loading={uploading}>{uploading ? t.uploading : t.upload}</Button>
                </Upload>
                {cover ? (
                  <Button type="link" danger onClick={() => setCover(null)}>
                    {t.removeCover}
                  </Button>
                ) : (
                  <span className="muted">{t.noCover}</span>
                )}
              </Space>
            </div>
          </Form.Item>
          <Form.Item name="bodyHtml" label={t.fields.body} rules={required(t.fields.body)}>
            <BodyEditor />
          </Form.Item>
          <Alert type="info" showIcon message={t.bodyHelp} />
        </Form>
      )}
      <Modal
        open={preview !== null}
        title={t.preview}
        width={960}
        onCancel={() => setPreview(null)}
        footer={<Button onClick={() => setPreview(null)}>{t.close}</Button>}
      >
        {preview ? (
          <div data-testid="article-preview">
            <NewsArticle
              article={{ ...preview, publishedAt: preview.publishedAt ?? preview.updatedAt }}
              unpublishedSavedAt={preview.status === 'published' ? undefined : preview.updatedAt}
            />
          </div>
        ) : null}
      </Modal>
    </Drawer>
  );
}
