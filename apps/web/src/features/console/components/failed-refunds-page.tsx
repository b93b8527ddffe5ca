import { type FailedRefund, staffCan } from '@kyfw/contracts';
import { Alert, Button, Card, Form, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useFailedRefunds, useMarkRefundDone, useRetryRefund, useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.failedRefunds;

/** Refunds that failed (退款未能自动完成): retry at the platform, or mark done by hand with how. */
export function FailedRefundsPage() {
  const { data, isPending } = useFailedRefunds();
  const staff = useStaff();
  const retry = useRetryRefund();
  const markDone = useMarkRefundDone();
  const [marking, setMarking] = useState<FailedRefund | null>(null);
  const [form] = Form.useForm<{ note: string }>();
  const canAct = staffCan(staff.data?.role, 'payments.manage');
  return (
    <Card title={consoleTexts.nav.failedRefunds}>
      <Alert type="info" showIcon message={t.intro} style={{ marginBottom: 16 }} />
      <Table<FailedRefund>
        rowKey="refundNo"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: t.refundNo, dataIndex: 'refundNo' },
          { title: consoleTexts.orders.orderNo, dataIndex: 'orderNo' },
          { title: consoleTexts.orders.phone, dataIndex: 'phone' },
          { title: t.amount, dataIndex: 'amount' },
          {
            title: t.kind,
            render: (_, r) => <Tag color={r.actor === 'system' ? 'orange' : 'blue'}>{t.kinds[r.actor]}</Tag>,
          },
          { title: t.channel, dataIndex: 'channelText' },
          { title: t.reason, dataIndex: 'reason' },
          { title: t.lastError, dataIndex: 'lastError' },
          { title: t.attempts, dataIndex: 'attempts' },
          {
            title: t.createdAt,
            dataIndex: 'createdAt',
            render: (v: string) => new Date(v).toLocaleString('zh-CN'),
          },
          {
            title: '',
            render: (_, r) =>
              canAct ? (
                <Space>
                  <Button
                    size="small"
                    loading={retry.isPending && retry.variables?.refundNo === r.refundNo}
                    onClick={() => retry.mutate({ refundNo: r.refundNo })}
                  >
                    {t.retry}
                  </Button>
                  <Button size="small" type="primary" onClick={() => setMarking(r)}>
                    {t.markDone}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={marking !== null}
        title={t.markDoneTitle}
        okText={t.markDone}
        confirmLoading={markDone.isPending}
        onCancel={() => setMarking(null)}
        onOk={() =>
          form
            .validateFields()
            .then(({ note }) =>
              markDone.mutate(
                { refundNo: marking!.refundNo, note },
                {
                  onSuccess: () => {
                    setMarking(null);
                    form.resetFields();
                  },
                },
              ),
            )
            // The form shows what is missing.
            .catch(() => undefined)
        }
        destroyOnHidden
      >
        <p>{t.markDoneBody}</p>
        {marking && (
          <p>
            {t.refundNo}：{marking.refundNo}，{t.amount}：{marking.amount}
          </p>
        )}
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="note"
            label={t.note}
            rules={[{ required: true, whitespace: true, message: t.noteRequired }]}
          >
            <Input.TextArea maxLength={200} showCount rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
