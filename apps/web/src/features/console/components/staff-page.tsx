import { STAFF_ROLE_TEXTS, STAFF_ROLE_VALUES, type StaffAccount, type StaffSecrets } from '@kyfw/contracts';
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { QrImage } from '../../payment';
import {
  useCreateStaff,
  useResetStaffTotp,
  useStaff,
  useStaffList,
  useUpdateStaff,
} from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.staff;
const ROLE_OPTIONS = STAFF_ROLE_VALUES.map((value) => ({ value, label: STAFF_ROLE_TEXTS[value] }));
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : null);

/**
 * Staff accounts (admin): create one with a role (its password, TOTP secret with a QR code and
 * recovery codes are shown once), change a role, disable or enable, reset two-step verification.
 * The server refuses all of it to other roles and to an admin acting on their own account.
 */
export function StaffPage() {
  const me = useStaff();
  const list = useStaffList();
  const update = useUpdateStaff();
  const reset = useResetStaffTotp();
  const [creating, setCreating] = useState(false);
  const [secrets, setSecrets] = useState<StaffSecrets | null>(null);

  return (
    <Card
      title={consoleTexts.nav.staff}
      extra={
        <Button type="primary" onClick={() => setCreating(true)}>
          {t.create}
        </Button>
      }
    >
      <Table<StaffAccount>
        rowKey="staffId"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          {
            title: t.username,
            dataIndex: 'username',
            render: (v: string) => (v === me.data?.username ? `${v}${t.self}` : v),
          },
          {
            title: t.role,
            render: (_, a) =>
              a.username === me.data?.username ? (
                a.roleText
              ) : (
                <Select
                  aria-label={`${a.username} ${t.role}`}
                  size="small"
                  style={{ width: 100 }}
                  value={a.role}
                  options={ROLE_OPTIONS}
                  onChange={(role) => update.mutate({ staffId: a.staffId, role })}
                />
              ),
          },
          {
            title: t.status,
            render: (_, a) =>
              a.disabled ? (
                <Tag color="red">{t.disabled}</Tag>
              ) : a.lockedUntil && new Date(a.lockedUntil) > new Date() ? (
                <Tag color="orange">{t.lockedUntil(when(a.lockedUntil) ?? '')}</Tag>
              ) : (
                <Tag color="green">{t.active}</Tag>
              ),
          },
          { title: t.recoveryLeft, dataIndex: 'recoveryCodesLeft' },
          { title: t.createdBy, dataIndex: 'createdBy' },
          { title: t.lastLogin, render: (_, a) => when(a.lastLoginAt) ?? t.never },
          {
            title: '',
            render: (_, a) =>
              a.username === me.data?.username ? null : (
                <Space>
                  {a.disabled ? (
                    <Button
                      size="small"
                      onClick={() => update.mutate({ staffId: a.staffId, disabled: false })}
                    >
                      {t.enable}
                    </Button>
                  ) : (
                    <Popconfirm
                      title={t.disableConfirm(a.username)}
                      onConfirm={() => update.mutate({ staffId: a.staffId, disabled: true })}
                    >
                      <Button size="small" danger>
                        {t.disable}
                      </Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={t.resetConfirm(a.username)}
                    onConfirm={() => reset.mutate({ staffId: a.staffId }, { onSuccess: setSecrets })}
                  >
                    <Button size="small">{t.resetTotp}</Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      <CreateStaffModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setCreating(false);
          setSecrets(s);
        }}
      />
      {secrets && <SecretsModal secrets={secrets} onClose={() => setSecrets(null)} />}
    </Card>
  );
}

function CreateStaffModal(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (s: StaffSecrets) => void;
}) {
  const [form] = Form.useForm<{ username: string; role: StaffAccount['role'] }>();
  const create = useCreateStaff();
  return (
    <Modal
      open={props.open}
      title={t.createTitle}
      okText={t.create}
      confirmLoading={create.isPending}
      onCancel={props.onClose}
      onOk={() =>
        form
          .validateFields()
          .then((values) =>
            create.mutate(values, {
              onSuccess: (s) => {
                form.resetFields();
                props.onCreated(s);
              },
            }),
          )
          // The form shows what is missing.
          .catch(() => undefined)
      }
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="username"
          label={t.username}
          extra={t.usernameHint}
          rules={[{ required: true, message: t.usernameRequired }]}
        >
          <Input autoComplete="off" maxLength={32} />
        </Form.Item>
        <Form.Item name="role" label={t.role} rules={[{ required: true, message: t.roleRequired }]}>
          <Select options={ROLE_OPTIONS} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What is shown only once: the password (new accounts), the TOTP secret as QR and text, the codes. */
function SecretsModal({ secrets, onClose }: { secrets: StaffSecrets; onClose: () => void }) {
  return (
    <Modal
      open
      title={t.secretsTitle(secrets.username)}
      closable={false}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          {t.saved}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={t.secretsWarning} style={{ marginBottom: 16 }} />
      {secrets.password && (
        <Typography.Paragraph>
          {t.password}：
          <Typography.Text code copyable>
            {secrets.password}
          </Typography.Text>
        </Typography.Paragraph>
      )}
      <Typography.Paragraph>{t.totpHint}</Typography.Paragraph>
      <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 16 }}>
        <QrImage value={secrets.otpauthUri} alt={t.qrAlt} size={160} />
        <div>
          {t.totpSecret}：
          <Typography.Text code copyable>
            {secrets.totpSecret}
          </Typography.Text>
        </div>
      </div>
      <Typography.Paragraph copyable={{ text: secrets.recoveryCodes.join('\n') }}>
        {t.recoveryCodes}
      </Typography.Paragraph>
      <ul className="console-codes" aria-label={t.recoveryCodes}>
        {secrets.recoveryCodes.map((code) => (
          <li key={code}>
            <Typography.Text code>{code}</Typography.Text>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
