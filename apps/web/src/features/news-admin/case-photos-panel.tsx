import type { CasePhotoAdmin, NewsImage } from '@kyfw/contracts';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import { toast } from '../../stores/ui-store';
import { NewsCover } from '../news';
import {
  type CasePhotoInput,
  uploadNewsImage,
  useCasePhotos,
  useDeleteCasePhoto,
  useSaveCasePhoto,
} from './news-admin-api';
import { newsAdminTexts as t } from './texts';

type Values = Omit<CasePhotoInput, 'id' | 'imageId'>;

/** The landing page's case photos: add, change, hide, delete. */
export function CasePhotosPanel() {
  const photos = useCasePhotos();
  const remove = useDeleteCasePhoto();
  const [editing, setEditing] = useState<CasePhotoAdmin | 'new' | null>(null);
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <span className="muted">{t.photos.intro}</span>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t.photos.add}
        </Button>
      </Space>
      {photos.data && photos.data.length === 0 ? <Empty description={t.photos.empty} /> : null}
      <div className="news-admin__photos">
        {(photos.data ?? []).map((p) => (
          <Card
            key={p.id}
            size="small"
            cover={<NewsCover image={p.image} category="guide" sizes="260px" alt={p.title} />}
            actions={[
              <Button key="edit" type="link" onClick={() => setEditing(p)}>
                {t.edit}
              </Button>,
              <Popconfirm
                key="delete"
                title={t.photos.confirmDelete}
                onConfirm={() =>
                  remove
                    .mutateAsync(p.id)
                    .then(() => toast.success(t.photos.deleted))
                    .catch(() => undefined)
                }
              >
                <Button type="link" danger>
                  {t.photos.delete}
                </Button>
              </Popconfirm>,
            ]}
          >
            <Card.Meta
              title={
                <Space>
                  {p.title}
                  {p.visible ? null : <Tag>{t.photos.hidden}</Tag>}
                </Space>
              }
              description={`${p.caption || '—'}${p.linkPath ? ` · ${p.linkPath}` : ''} · ${t.photos.sortOrder} ${p.sortOrder}`}
            />
          </Card>
        ))}
      </div>
      {editing !== null ? (
        <CasePhotoForm photo={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}

function CasePhotoForm({ photo, onClose }: { photo: CasePhotoAdmin | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveCasePhoto();
  const [image, setImage] = useState<NewsImage | null>(photo?.image ?? null);
  const [uploading, setUploading] = useState(false);

  async function submit() {
    const values = await form.validateFields();
    if (!image) {
      toast.error(t.photos.imageRequired);
      return;
    }
    const saved = await save
      .mutateAsync({ ...values, imageId: image.id, ...(photo ? { id: photo.id } : {}) })
      .catch(() => undefined);
    if (!saved) return;
    toast.success(t.photos.saved);
    onClose();
  }

  return (
    <Modal
      open
      title={photo ? t.edit : t.photos.add}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={save.isPending}
    >
      <Form
        form={form}
        name="casePhoto"
        layout="vertical"
        requiredMark={false}
        initialValues={{
          title: photo?.title ?? '',
          caption: photo?.caption ?? '',
          linkPath: photo?.linkPath ?? '',
          sortOrder: photo?.sortOrder ?? 0,
          visible: photo?.visible ?? true,
        }}
      >
        <Form.Item label={t.photos.image} extra={t.fields.coverHelp}>
          <Space align="start">
            <div style={{ width: 200 }}>
              <NewsCover image={image} category="guide" sizes="200px" />
            </div>
            <Upload
              accept="image/png,image/jpeg,image/webp"
              showUploadList={false}
              beforeUpload={(file) => {
                setUploading(true);
                uploadNewsImage(file)
                  .then(setImage)
                  .catch(() => undefined)
                  .finally(() => setUploading(false));
                return false;
              }}
            >
              <Button loading={uploading}>{t.upload}</Button>
            </Upload>
          </Space>
        </Form.Item>
        <Form.Item
          name="title"
          label={t.photos.title}
          rules={[{ required: true, whitespace: true, message: t.required(t.photos.title) }]}
        >
          <Input maxLength={40} showCount />
        </Form.Item>
        <Form.Item name="caption" label={t.photos.caption}>
          <Input maxLength={120} showCount />
        </Form.Item>
        <Form.Item name="linkPath" label={t.photos.linkPath}>
          <Input maxLength={200} placeholder="/check" />
        </Form.Item>
        <Space size="large">
          <Form.Item name="sortOrder" label={t.photos.sortOrder}>
            <InputNumber min={0} max={9999} />
          </Form.Item>
          <Form.Item name="visible" label={t.photos.visible} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
