import { type FriendLinkAdmin, SITE_RULES, type SiteInfo } from '@kyfw/contracts';
import { Button, Card, Form, Image, Input, InputNumber, Modal, Popconfirm, Space, Table, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../stores/ui-store';
import {
  type LinkInput,
  uploadSiteQr,
  useDeleteLink,
  useSaveLink,
  useSaveSite,
  useSite,
} from './goods-admin-api';
import { goodsAdminTexts } from './texts';

const t = goodsAdminTexts.site;
const HTTP_URL = /^https?:\/\/[^\s/]+/;

/** Site info (the public footer) and friend links (editor, admin). */
export function SitePage() {
  const { data, isPending } = useSite();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t.info} loading={isPending} extra={<span style={{ color: '#888' }}>{t.infoNote}</span>}>
        {data && <SiteInfoForm info={data.webInfo} />}
      </Card>
      <FriendLinks links={data?.friendLinks ?? []} loading={isPending} />
    </Space>
  );
}

function SiteInfoForm({ info }: { info: SiteInfo }) {
  const [form] = Form.useForm<SiteInfo>();
  const save = useSaveSite();
  const [uploading, setUploading] = useState(false);
  const qrCode = Form.useWatch('qrCode', form) ?? info.qrCode;
  useEffect(() => form.setFieldsValue(info), [form, info]);

  const upload = (file: File) => {
    setUploading(true);
    uploadSiteQr(file)
      .then(({ url }) => {
        form.setFieldValue('qrCode', url);
        toast.success(t.qrUploaded);
      })
      .catch(() => undefined)
      .finally(() => setUploading(false));
    return false;
  };

  return (
    <Form<SiteInfo>
      name="siteInfo"
      form={form}
      layout="vertical"
      initialValues={info}
      style={{ maxWidth: 640 }}
      onFinish={(v) =>
        save
          .mutateAsync(v)
          .then(() => toast.success(t.saved))
          .catch(() => undefined)
      }
    >
      <Form.Item
        name="name"
        label={t.name}
        rules={[{ required: true, whitespace: true, max: SITE_RULES.nameMax }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="contactPhone" label={t.contactPhone} rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
      <Form.Item
        name="companyAddress"
        label={t.companyAddress}
        rules={[{ required: true, whitespace: true }]}
      >
        <Input />
      </Form.Item>
      <Form.Item label={t.qrCode} extra={t.qrHint}>
        <Space align="start">
          {qrCode && <Image src={qrCode} width={96} height={96} alt={t.qrCode} />}
          <Space direction="vertical">
            <Upload accept="image/png,image/jpeg,image/webp" showUploadList={false} beforeUpload={upload}>
              <Button loading={uploading}>{t.qrUpload}</Button>
            </Upload>
            <Form.Item name="qrCode" noStyle rules={[{ required: true, whitespace: true }]}>
              <Input aria-label={t.qrCode} style={{ width: 360 }} />
            </Form.Item>
          </Space>
        </Space>
      </Form.Item>
      <Form.Item name="recordNumber" label={t.recordNumber} rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
      <Form.Item name="copyright" label={t.copyright} rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t.save}
      </Button>
    </Form>
  );
}

function FriendLinks({ links, loading }: { links: FriendLinkAdmin[]; loading: boolean }) {
  const [editing, setEditing] = useState<FriendLinkAdmin | 'new' | null>(null);
  const remove = useDeleteLink();
  return (
    <Card
      title={t.links}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t.linkAdd}
        </Button>
      }
    >
      <Table<FriendLinkAdmin>
        rowKey="id"
        loading={loading}
        dataSource={links}
        pagination={false}
        locale={{ emptyText: t.linkEmpty }}
        columns={[
          { title: t.linkName, dataIndex: 'name' },
          {
            title: t.linkUrl,
            render: (_, l) => (
              <a href={l.url} target="_blank" rel="noopener noreferrer">
                {l.url}
              </a>
            ),
          },
          { title: t.linkSort, dataIndex: 'sortOrder', width: 80 },
          {
            title: '',
            width: 160,
            render: (_, l) => (
              <Space>
                <Button size="small" onClick={() => setEditing(l)}>
                  {goodsAdminTexts.goods.edit}
                </Button>
                <Popconfirm
                  title={t.linkRemoveConfirm}
                  onConfirm={() =>
                    remove
                      .mutateAsync(l.id)
                      .then(() => toast.success(t.linkRemoved))
                      .catch(() => undefined)
                  }
                >
                  <Button size="small" danger>
                    {t.linkRemove}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <LinkEditor link={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function LinkEditor({ link, onClose }: { link: FriendLinkAdmin | null; onClose: () => void }) {
  const [form] = Form.useForm<LinkInput>();
  const save = useSaveLink();
  return (
    <Modal
      open
      title={link ? link.name : t.linkAdd}
      okText={t.linkSave}
      cancelText={goodsAdminTexts.goods.form.cancel}
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<LinkInput>
        name="friendLink"
        form={form}
        layout="vertical"
        initialValues={link ?? { sortOrder: 0 }}
        onFinish={(v) =>
          save
            .mutateAsync({ ...v, ...(link ? { id: link.id } : {}) })
            .then(() => {
              toast.success(t.linkSaved);
              onClose();
            })
            .catch(() => undefined)
        }
      >
        <Form.Item name="name" label={t.linkName} rules={[{ required: true, whitespace: true, max: 50 }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="url"
          label={t.linkUrl}
          extra={t.urlHint}
          rules={[{ required: true, pattern: HTTP_URL, message: t.urlHint }]}
        >
          <Input placeholder="https://" />
        </Form.Item>
        <Form.Item name="sortOrder" label={t.linkSort}>
          <InputNumber precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
