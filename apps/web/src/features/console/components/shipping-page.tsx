import { type ConsoleDelivery, staffCan } from '@kyfw/contracts';
import { Button, Card, Form, Input, Modal, Table, Tabs } from 'antd';
import { useState } from 'react';
import { useDeliveries, useShip, useStaff } from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.shipping;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : '');

/** Orders with a courier delivery: ship one with carrier and tracking number (the user sees both). */
export function ShippingPage() {
  const [shipped, setShipped] = useState(false);
  const { data, isPending } = useDeliveries(shipped);
  const staff = useStaff();
  const ship = useShip();
  const [shipping, setShipping] = useState<ConsoleDelivery | null>(null);
  const [form] = Form.useForm<{ carrier: string; trackingNo: string }>();
  const canShip = staffCan(staff.data?.role, 'deliveries.ship');
  return (
    <Card title={consoleTexts.nav.shipping}>
      <Tabs
        activeKey={shipped ? 'shipped' : 'waiting'}
        onChange={(key) => setShipped(key === 'shipped')}
        items={Object.entries(t.tabs).map(([key, label]) => ({ key, label }))}
      />
      <Table<ConsoleDelivery>
        rowKey="orderNo"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: consoleTexts.orders.orderNo, dataIndex: 'orderNo' },
          { title: t.goods, dataIndex: 'goodsName' },
          { title: t.recipient, render: (_, d) => `${d.recipientName} ${d.phone}` },
          { title: t.address, render: (_, d) => `${d.province}${d.city}${d.district}${d.detail}` },
          shipped
            ? { title: t.carrier, render: (_, d) => `${d.carrier ?? ''} ${d.trackingNo ?? ''}` }
            : { title: t.paidAt, render: (_, d) => when(d.paidAt) },
          ...(shipped
            ? [{ title: t.shippedAt, render: (_: unknown, d: ConsoleDelivery) => when(d.shippedAt) }]
            : []),
          {
            title: '',
            render: (_, d) =>
              canShip && !d.shippedAt ? (
                <Button size="small" type="primary" onClick={() => setShipping(d)}>
                  {t.ship}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={shipping !== null}
        title={shipping ? t.shipTitle(shipping.orderNo) : ''}
        okText={t.ship}
        confirmLoading={ship.isPending}
        onCancel={() => setShipping(null)}
        onOk={() =>
          form
            .validateFields()
            .then((values) =>
              ship.mutate(
                { orderNo: shipping!.orderNo, ...values },
                {
                  onSuccess: () => {
                    setShipping(null);
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
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="carrier"
            label={t.carrier}
            rules={[{ required: true, whitespace: true, message: t.carrierRequired }]}
          >
            <Input maxLength={30} placeholder="顺丰速运" />
          </Form.Item>
          <Form.Item
            name="trackingNo"
            label={t.trackingNo}
            rules={[{ required: true, whitespace: true, message: t.trackingRequired }]}
          >
            <Input maxLength={40} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
