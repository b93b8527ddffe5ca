import { type ConsoleProof, staffCan } from '@kyfw/contracts';
import { Button, Card, Form, Image, Input, Modal, Space, Table, Tabs } from 'antd';
import { useState } from 'react';
import { proofFileUrl, useConfirmProof, useProofs, useRejectProof, useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.offline;

/** Transfer proofs: the image (or the PDF), the amount due, confirm or reject with a reason. */
export function OfflinePage() {
  const [status, setStatus] = useState<ConsoleProof['status']>('pending');
  const { data, isPending } = useProofs(status);
  const staff = useStaff();
  const confirm = useConfirmProof();
  const reject = useRejectProof();
  const [rejecting, setRejecting] = useState<ConsoleProof | null>(null);
  const [confirming, setConfirming] = useState<ConsoleProof | null>(null);
  const [form] = Form.useForm();
  const canReview = staffCan(staff.data?.role, 'payments.manage');
  return (
    <Card>
      <Tabs
        activeKey={status}
        onChange={(key) => setStatus(key as ConsoleProof['status'])}
        items={Object.entries(t.tabs).map(([key, label]) => ({ key, label }))}
      />
      <Table<ConsoleProof>
        rowKey="proofId"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: consoleTexts.orders.orderNo, dataIndex: 'orderNo' },
          { title: t.amount, dataIndex: 'amount' },
          {
            title: t.proof,
            render: (_, p) =>
              p.mimeType.startsWith('image/') ? (
                <Image width={96} src={proofFileUrl(p.proofId)} alt={t.proof} />
              ) : (
                <a href={proofFileUrl(p.proofId)} target="_blank" rel="noreferrer">
                  {t.openProof}
                </a>
              ),
          },
          {
            title: t.submittedAt,
            dataIndex: 'createdAt',
            render: (v: string) => new Date(v).toLocaleString('zh-CN'),
          },
          { title: t.reviewNote, dataIndex: 'reviewNote' },
          {
            title: '',
            render: (_, p) =>
              canReview && p.status === 'pending' ? (
                <Space>
                  <Button type="primary" onClick={() => setConfirming(p)}>
                    {t.confirm}
                  </Button>
                  <Button danger onClick={() => setRejecting(p)}>
                    {t.reject}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={confirming !== null}
        title={t.confirmTitle}
        okText={t.confirm}
        confirmLoading={confirm.isPending}
        onCancel={() => setConfirming(null)}
        onOk={() =>
          confirming &&
          confirm.mutate(
            { proofId: confirming.proofId, note: form.getFieldValue('note') },
            { onSuccess: () => setConfirming(null) },
          )
        }
      >
        <p>
          {confirming?.orderNo} · ¥{confirming?.amount}
        </p>
        <p>{t.confirmBody}</p>
        <Form form={form} layout="vertical">
          <Form.Item name="note" label={t.note}>
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
      <RejectModal
        proof={rejecting}
        pending={reject.isPending}
        onCancel={() => setRejecting(null)}
        onReject={(reason) =>
          rejecting &&
          reject.mutate({ proofId: rejecting.proofId, reason }, { onSuccess: () => setRejecting(null) })
        }
      />
    </Card>
  );
}

function RejectModal(props: {
  proof: ConsoleProof | null;
  pending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={props.proof !== null}
      title={t.rejectTitle}
      okText={t.reject}
      okButtonProps={{ danger: true }}
      confirmLoading={props.pending}
      onCancel={props.onCancel}
      onOk={() => form.validateFields().then((v) => props.onReject(v.reason))}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t.rejectReason}
          rules={[{ required: true, message: t.rejectReasonRequired }]}
        >
          <Input.TextArea maxLength={200} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
