import { type AccountRequest, staffCan, type UserEntitlement } from '@kyfw/contracts';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { useAccountRequests, useSetUserLock, useUserDetail } from '../api/account-jobs-api';
import { useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.account;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : '');

/** One account: its lock (admin locks/unlocks), its free uses, its export/deletion requests. */
export function UserAccountDrawer({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { data: staff } = useStaff();
  const canLock = staffCan(staff?.role, 'users.lock');
  const { data, isPending } = useUserDetail(userId);
  const setLock = useSetUserLock();
  const [form] = Form.useForm<{ reason: string }>();

  return (
    <Drawer open width={640} title={t.title(data?.phone ?? null)} onClose={onClose} loading={isPending}>
      {data && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t.status}>
              <Space>
                <Tag color={data.status === 'active' ? 'green' : 'default'}>{data.statusText}</Tag>
                {data.lockedAt && <Tag color="red">{t.locked}</Tag>}
              </Space>
            </Descriptions.Item>
            {data.lockedAt && <Descriptions.Item label={t.lockedAt}>{when(data.lockedAt)}</Descriptions.Item>}
            {data.lockedReason && (
              <Descriptions.Item label={t.lockedReason}>{data.lockedReason}</Descriptions.Item>
            )}
          </Descriptions>
          {!canLock && <Alert type="info" showIcon message={t.readOnly} />}
          {canLock && data.status === 'active' && !data.lockedAt && (
            <Form
              form={form}
              name="userLock"
              layout="vertical"
              onFinish={(v) =>
                setLock
                  .mutateAsync({ userId, reason: v.reason })
                  .then(() => {
                    toast.success(t.lockDone);
                    form.resetFields();
                  })
                  .catch(() => undefined)
              }
            >
              <Alert type="warning" showIcon message={t.lockNote} style={{ marginBottom: 12 }} />
              <Form.Item
                name="reason"
                label={t.lockReason}
                rules={[{ required: true, whitespace: true, message: t.lockReasonRequired }, { max: 200 }]}
              >
                <Input.TextArea rows={2} maxLength={200} showCount />
              </Form.Item>
              <Button danger htmlType="submit" loading={setLock.isPending}>
                {t.lock}
              </Button>
            </Form>
          )}
          {canLock && data.lockedAt && (
            <Popconfirm
              title={t.unlockConfirm}
              onConfirm={() =>
                setLock
                  .mutateAsync({ userId, reason: null })
                  .then(() => toast.success(t.unlockDone))
                  .catch(() => undefined)
              }
            >
              <Button type="primary" loading={setLock.isPending}>
                {t.unlock}
              </Button>
            </Popconfirm>
          )}
          <Table<UserEntitlement>
            title={() => t.entitlements}
            rowKey="kind"
            size="small"
            pagination={false}
            locale={{ emptyText: t.noEntitlements }}
            dataSource={data.entitlements}
            columns={[
              { title: t.kind, dataIndex: 'kindText' },
              { title: t.grantedBy, dataIndex: 'grantedByText' },
              { title: t.grantedAt, render: (_, e) => when(e.grantedAt) },
              {
                title: t.usage,
                render: (_, e) =>
                  e.usedAt ? <Tag>{t.usedAt(when(e.usedAt))}</Tag> : <Tag color="green">{t.unused}</Tag>,
              },
            ]}
          />
          <RequestsTable rows={data.requests} />
        </Space>
      )}
    </Drawer>
  );
}

function RequestsTable({ rows, loading }: { rows: AccountRequest[]; loading?: boolean }) {
  return (
    <Table<AccountRequest>
      title={() => t.requests}
      rowKey="id"
      size="small"
      loading={loading}
      pagination={false}
      locale={{ emptyText: t.noRequests }}
      dataSource={rows}
      columns={[
        { title: t.requestKind, dataIndex: 'kindText' },
        { title: t.requestPhone, render: (_, r) => r.phone ?? '—' },
        { title: t.requestAt, render: (_, r) => when(r.at) },
      ]}
    />
  );
}

/** Every account's data exports and deletions, newest first. */
export function AccountRequestsPanel() {
  const [kind, setKind] = useState<'all' | 'export' | 'deletion'>('all');
  const [page, setPage] = useState(1);
  const { data, isFetching } = useAccountRequests({
    ...(kind === 'all' ? {} : { kind }),
    page,
    pageSize: 20,
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Segmented
          value={kind}
          onChange={(v) => {
            setKind(v as typeof kind);
            setPage(1);
          }}
          options={[
            { value: 'all', label: t.allKinds },
            { value: 'export', label: '导出个人数据' },
            { value: 'deletion', label: '注销账号' },
          ]}
        />
        <span style={{ color: '#888' }}>{t.requestsNote}</span>
      </Space>
      <Table<AccountRequest>
        rowKey="id"
        size="small"
        loading={isFetching}
        locale={{ emptyText: t.noRequests }}
        dataSource={data?.list ?? []}
        pagination={{ current: page, pageSize: 20, total: data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t.requestKind, dataIndex: 'kindText' },
          { title: t.requestPhone, render: (_, r) => r.phone ?? '—' },
          { title: t.requestAt, render: (_, r) => when(r.at) },
        ]}
      />
    </Space>
  );
}
