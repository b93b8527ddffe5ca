import { Button, Descriptions, Drawer, Form, Input, InputNumber, Table, Timeline } from 'antd';
import { useConsoleOrder, useRefund, useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.orders;

/** An order's detail: status history, payments, refunds, and (finance, admin) a refund form. */
export function OrderDrawer({ orderNo, onClose }: { orderNo: string | null; onClose: () => void }) {
  const { data } = useConsoleOrder(orderNo);
  const staff = useStaff();
  const refund = useRefund();
  const [form] = Form.useForm();
  const canRefund = staff.data?.role === 'admin' || staff.data?.role === 'finance';
  return (
    <Drawer open={Boolean(orderNo)} onClose={onClose} width={720} title={`${t.detailTitle} ${orderNo ?? ''}`}>
      {data ? (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t.service}>{data.goodsName}</Descriptions.Item>
            <Descriptions.Item label={t.status}>{data.statusText}</Descriptions.Item>
            <Descriptions.Item label={t.amount}>{data.amount}</Descriptions.Item>
            <Descriptions.Item label={t.phone}>{data.phone ?? t.none}</Descriptions.Item>
          </Descriptions>
          <h4 style={{ marginTop: 16 }}>{t.history}</h4>
          <Timeline
            items={data.history.map((h) => ({
              children: `${new Date(h.at).toLocaleString('zh-CN')} ${h.statusText} ${h.reason}`,
            }))}
          />
          <h4>{t.payments}</h4>
          <Table
            size="small"
            rowKey="paymentId"
            pagination={false}
            dataSource={data.payments}
            columns={[
              { title: t.paymentChannel, dataIndex: 'channel' },
              { title: t.transactionId, dataIndex: 'transactionId' },
              { title: t.amount, dataIndex: 'amount' },
              {
                title: t.paymentTime,
                dataIndex: 'paidAt',
                render: (v: string) => new Date(v).toLocaleString('zh-CN'),
              },
            ]}
          />
          <h4 style={{ marginTop: 16 }}>{t.refunds}</h4>
          <Table
            size="small"
            rowKey="refundId"
            pagination={false}
            dataSource={data.refunds}
            columns={[
              { title: 'No.', dataIndex: 'refundNo' },
              { title: t.amount, dataIndex: 'amount' },
              { title: t.refundReason, dataIndex: 'reason' },
              { title: t.status, dataIndex: 'statusText' },
            ]}
          />
          {canRefund && data.payments.length > 0 ? (
            <Form
              form={form}
              layout="vertical"
              style={{ marginTop: 16 }}
              onFinish={(values: { amountYuan?: number; reason: string }) =>
                refund.mutate(
                  {
                    orderNo: data.orderNo,
                    reason: values.reason,
                    amountFen: values.amountYuan ? Math.round(values.amountYuan * 100) : undefined,
                  },
                  { onSuccess: () => form.resetFields() },
                )
              }
            >
              <h4>{t.refund}</h4>
              <Form.Item name="amountYuan" label={t.refundAmount}>
                <InputNumber min={0.01} precision={2} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item
                name="reason"
                label={t.refundReason}
                rules={[{ required: true, message: t.refundReasonRequired }]}
              >
                <Input maxLength={80} />
              </Form.Item>
              <Button danger htmlType="submit" loading={refund.isPending}>
                {t.refundSubmit}
              </Button>
            </Form>
          ) : null}
        </>
      ) : null}
    </Drawer>
  );
}
