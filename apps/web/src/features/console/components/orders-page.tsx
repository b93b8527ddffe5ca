import type { ConsoleOrder } from '@kyfw/contracts';
import { Button, Card, Form, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { type OrderFilter, useOrderSearch } from '../api/console-api';
import { CONSOLE_PAGE_SIZE, serverPagination } from '../lib/table-pagination';
import { consoleTexts, orderStatusTexts, serviceTexts } from '../texts';
import { OrderDrawer } from './order-drawer';

const t = consoleTexts.orders;
const options = (texts: Record<string, string>) =>
  Object.entries(texts).map(([value, label]) => ({ value, label }));

/** Orders by number, phone, status and service; a row opens its detail. */
export function OrdersPage() {
  const [filter, setFilter] = useState<OrderFilter>({ page: 1, pageSize: CONSOLE_PAGE_SIZE });
  const [open, setOpen] = useState<string | null>(null);
  const { data, isPending } = useOrderSearch(filter);
  const [form] = Form.useForm();
  return (
    <Card>
      <Form
        form={form}
        layout="inline"
        onFinish={(values: Omit<OrderFilter, 'page' | 'pageSize'>) =>
          setFilter({ ...values, page: 1, pageSize: CONSOLE_PAGE_SIZE })
        }
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="orderNo" label={t.orderNo}>
          <Input allowClear style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="phone" label={t.phone}>
          <Input allowClear style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="status" label={t.status}>
          <Select allowClear placeholder={t.all} style={{ width: 120 }} options={options(orderStatusTexts)} />
        </Form.Item>
        <Form.Item name="serviceType" label={t.service}>
          <Select allowClear placeholder={t.all} style={{ width: 130 }} options={options(serviceTexts)} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t.search}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setFilter({ page: 1, pageSize: CONSOLE_PAGE_SIZE });
            }}
          >
            {t.reset}
          </Button>
        </Space>
      </Form>
      <Table<ConsoleOrder>
        rowKey="orderNo"
        size="small"
        loading={isPending}
        dataSource={data?.list ?? []}
        pagination={serverPagination(filter, setFilter, data?.total)}
        columns={[
          { title: t.orderNo, dataIndex: 'orderNo' },
          { title: t.service, dataIndex: 'serviceTypeText' },
          { title: t.phone, dataIndex: 'phone' },
          { title: t.amount, dataIndex: 'amount' },
          {
            title: t.status,
            render: (_, o) => (
              <Space>
                {o.statusText}
                {o.offlinePending ? <Tag color="orange">{t.offlinePending}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t.createdAt,
            dataIndex: 'createdAt',
            render: (v: string) => new Date(v).toLocaleString('zh-CN'),
          },
          {
            title: '',
            render: (_, o) => (
              <Button type="link" size="small" onClick={() => setOpen(o.orderNo)}>
                {t.detail}
              </Button>
            ),
          },
        ]}
      />
      <OrderDrawer orderNo={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
