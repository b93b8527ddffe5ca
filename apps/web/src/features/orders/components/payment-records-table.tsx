import { AlipayCircleFilled, BankOutlined, WechatFilled } from '@ant-design/icons';
import { Alert, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { tablePagination } from '../../../lib/pagination';
import { usePaymentRecords } from '../api/list-payment-records';
import { DEFAULT_PAGE_SIZE, formatDateTime } from '../lib/format';
import { paymentRecordTexts as t } from '../texts';
import type { PaymentRecord } from '../types';
import { AmountCell } from './amount-cell';
import { Empty } from './empty';
import '../orders.css';

const METHOD_ICONS: Record<PaymentRecord['method'], ReactNode> = {
  wx: <WechatFilled style={{ color: '#07c160' }} />,
  ali: <AlipayCircleFilled style={{ color: '#1677ff' }} />,
  offline: <BankOutlined />,
};

const columns: ColumnsType<PaymentRecord> = [
  {
    key: 'time',
    title: t.columns.time,
    width: 150,
    render: (_, r) => <span className="order-time">{formatDateTime(r.time)}</span>,
  },
  {
    key: 'method',
    title: t.columns.method,
    width: 120,
    render: (_, r) => (
      <span className="pay-record-method">
        {METHOD_ICONS[r.method]} {r.methodText}
      </span>
    ),
  },
  {
    key: 'amount',
    title: t.columns.amount,
    width: 120,
    align: 'right',
    render: (_, r) => (
      <AmountCell
        amount={r.amount}
        refundedFen={r.refundedFen}
        refundedAmount={r.refundedAmount}
        refundedText={t.refunded}
      />
    ),
  },
  {
    key: 'order',
    title: t.columns.order,
    render: (_, r) => (
      <div className="order-goods">
        <span className="order-goods__name">{r.goodsName}</span>
        <span className="order-goods__meta mono">{r.orderNo}</span>
      </div>
    ),
  },
  {
    key: 'status',
    title: t.columns.status,
    width: 110,
    render: (_, r) => <Tag color={r.status === 'accepted' ? 'green' : 'orange'}>{r.statusText}</Tag>,
  },
];

/** /user/paymentRecords: every payment with time, method, amount and order, paginated. */
export function PaymentRecordsTable() {
  const [page, setPage] = useState(1);
  const records = usePaymentRecords(page, DEFAULT_PAGE_SIZE);
  if (records.isError && !records.data) return <Alert type="error" showIcon title={records.error.message} />;
  const total = records.data?.total ?? 0;
  return (
    <div className="pay-records">
      <Table<PaymentRecord>
        rowKey="paymentId"
        size="middle"
        columns={columns}
        dataSource={records.data?.list ?? []}
        loading={records.isFetching}
        locale={{ emptyText: <Empty text={t.empty} /> }}
        pagination={total > 0 ? tablePagination(total, page, setPage, DEFAULT_PAGE_SIZE) : false}
        scroll={{ x: 720 }}
      />
    </div>
  );
}
