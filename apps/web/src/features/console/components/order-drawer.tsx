import { formatYuan, staffCan } from '@kyfw/contracts';
import { Alert, Button, Descriptions, Drawer, Form, Input, InputNumber, Modal, Table, Timeline } from 'antd';
import { useState } from 'react';
import { useConsoleOrder, useRefund, useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.orders;

/** An order's detail: status history, payments, refunds, and (finance, admin) a refund form. */
export function OrderDrawer({ orderNo, onClose }: { orderNo: string | null; onClose: () => void }) {
  const { data } = useConsoleOrder(orderNo);
  const staff = useStaff();
  const refund = useRefund();
  const [form] = Form.useForm();
  const canRefund = staffCan(staff.data?.role, 'payments.manage');
  // The refund waiting for the operator's confirmation (amount and order shown), decision 0031.
  const [pending, setPending] = useState<{ amountFen: number; reason: string } | null>(null);
  // What is left to refund: paid less every refund not failed (those under way count).
  const refundableFen = data
    ? Math.max(
        0,
        data.payments.filter((p) => p.status === 'accepted').reduce((sum, p) => sum + p.amountFen, 0) -
          data.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amountFen, 0),
      )
    : 0;
  const yuan = (fen: number) => formatYuan((fen / 100).toFixed(2));
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
              key={`${data.orderNo}:${refundableFen}`}
              form={form}
              layout="vertical"
              style={{ marginTop: 16 }}
              initialValues={{ amountYuan: refundableFen > 0 ? refundableFen / 100 : undefined }}
              onFinish={(values: { amountYuan: number; reason: string }) =>
                setPending({ amountFen: Math.round(values.amountYuan * 100), reason: values.reason })
              }
            >
              <h4>{t.refund}</h4>
              {refundableFen === 0 ? <Alert type="info" showIcon message={t.refundNothingLeft} /> : null}
              <Form.Item
                name="amountYuan"
                label={t.refundAmount}
                rules={[
                  { required: true, message: t.refundAmountRequired },
                  {
                    validator: (_r, v?: number) =>
                      v === undefined || Math.round(v * 100) <= refundableFen
                        ? Promise.resolve()
                        : Promise.reject(new Error(t.refundAmountTooMuch(yuan(refundableFen)))),
                  },
                ]}
              >
                <InputNumber min={0.01} precision={2} style={{ width: 200 }} disabled={refundableFen === 0} />
              </Form.Item>
              <Form.Item
                name="reason"
                label={t.refundReason}
                rules={[{ required: true, message: t.refundReasonRequired }]}
              >
                <Input maxLength={80} />
              </Form.Item>
              <Button danger htmlType="submit" disabled={refundableFen === 0}>
                {t.refundSubmit}
              </Button>
            </Form>
          ) : null}
          <Modal
            open={pending !== null}
            title={t.refundConfirm.title}
            okText={pending ? t.refundConfirm.ok(yuan(pending.amountFen)) : ''}
            okButtonProps={{ danger: true, loading: refund.isPending }}
            cancelText={t.refundConfirm.cancel}
            onCancel={() => setPending(null)}
            onOk={() => {
              if (!pending) return;
              refund.mutate(
                { orderNo: data.orderNo, amountFen: pending.amountFen, reason: pending.reason },
                {
                  onSuccess: () => form.resetFields(),
                  onSettled: () => setPending(null),
                },
              );
            }}
          >
            {pending ? (
              <>
                <Descriptions size="small" column={1} bordered>
                  <Descriptions.Item label={t.refundConfirm.orderNo}>{data.orderNo}</Descriptions.Item>
                  <Descriptions.Item label={t.refundConfirm.service}>{data.goodsName}</Descriptions.Item>
                  <Descriptions.Item label={t.refundConfirm.paid}>{yuan(data.amountFen)}</Descriptions.Item>
                  <Descriptions.Item label={t.refundConfirm.amount}>
                    <strong>{yuan(pending.amountFen)}</strong>
                  </Descriptions.Item>
                  <Descriptions.Item label={t.refundConfirm.reason}>{pending.reason}</Descriptions.Item>
                </Descriptions>
                <p style={{ marginTop: 12 }}>
                  {pending.amountFen === refundableFen ? t.refundConfirm.full : t.refundConfirm.partial}
                </p>
                <p>{t.refundConfirm.warning}</p>
              </>
            ) : null}
          </Modal>
        </>
      ) : null}
    </Drawer>
  );
}
