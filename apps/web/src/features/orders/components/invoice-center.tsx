import { DownloadOutlined } from '@ant-design/icons';
import { fenToYuan, formatYuan } from '@kyfw/contracts';
import { Alert, Button, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { tablePagination } from '../../../lib/pagination';
import { toast } from '../../../stores/ui-store';
import { useDownloadInvoice } from '../api/download-invoice';
import { useInvoiceableOrders } from '../api/list-invoiceable-orders';
import { useInvoices } from '../api/list-invoices';
import { DEFAULT_PAGE_SIZE, formatDateTime } from '../lib/format';
import { invoiceTexts as t } from '../texts';
import type { Invoice, InvoiceableOrder } from '../types';
import { Empty } from './empty';
import { InvoiceFormModal } from './invoice-form-modal';
import '../orders.css';

/** The chosen orders' total in yuan, summed exactly in fen. */
function totalYuan(orders: { amountFen: number }[]): number {
  return fenToYuan(orders.reduce((sum, o) => sum + o.amountFen, 0));
}

const orderColumns: ColumnsType<InvoiceableOrder> = [
  {
    key: 'orderNo',
    title: t.columns.orderNo,
    width: 210,
    render: (_, o) => <span className="mono">{o.orderNo}</span>,
  },
  { key: 'goods', title: t.columns.goods, dataIndex: 'goodsName' },
  {
    key: 'amount',
    title: t.columns.amount,
    width: 110,
    align: 'right',
    render: (_, o) => <strong>{formatYuan(o.amount)}</strong>,
  },
  {
    key: 'paidAt',
    title: t.columns.paidAt,
    width: 150,
    render: (_, o) => <span className="order-time">{formatDateTime(o.paidAt)}</span>,
  },
];

/** /user/invoice: choose paid orders and request an invoice; the requests with status and download. */
export function InvoiceCenter() {
  const invoiceable = useInvoiceableOrders();
  const [selected, setSelected] = useState<string[]>([]);
  const [formOpen, setFormOpen] = useState(false);
  const [page, setPage] = useState(1);
  const invoices = useInvoices(page, DEFAULT_PAGE_SIZE);
  const download = useDownloadInvoice();
  const downloading = download.isPending
    ? `${download.variables.invoiceId}${download.variables.red ? ':red' : ''}`
    : null;

  const orders = invoiceable.data ?? [];
  const chosen = orders.filter((o) => selected.includes(o.orderId));
  const chosenAmount = totalYuan(chosen);

  const save = (invoice: Invoice, red = false) =>
    download.mutate({
      invoiceId: invoice.invoiceId,
      red,
      fallbackName: red ? t.redFileName(invoice.invoiceNo) : t.fileName(invoice.invoiceNo),
    });

  const invoiceColumns: ColumnsType<Invoice> = [
    {
      key: 'invoiceNo',
      title: t.columns.invoiceNo,
      width: 190,
      render: (_, i) => <span className="mono">{i.invoiceNo}</span>,
    },
    {
      key: 'title',
      title: t.columns.title,
      render: (_, i) => (
        <div className="order-goods">
          <span className="order-goods__name">{i.title}</span>
          <span className="order-goods__meta">
            {t.titleTypes[i.titleType]}
            {i.taxpayerId ? ` · ${i.taxpayerId}` : ''} · {i.orders.map((o) => o.orderNo).join('、')}
          </span>
        </div>
      ),
    },
    {
      key: 'amount',
      title: t.columns.amount,
      width: 110,
      align: 'right',
      render: (_, i) => <strong>{formatYuan(i.amount)}</strong>,
    },
    {
      key: 'status',
      title: t.columns.status,
      width: 130,
      render: (_, i) => (
        <>
          <Tag color={i.statusText === '已红冲' ? 'red' : i.status === 'issued' ? 'green' : 'gold'}>
            {i.statusText}
          </Tag>
          {i.status === 'issued' ? (
            <div className="order-time" title={i.email ?? undefined}>
              {i.emailedAt ? t.emailed : t.emailing}
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'createdAt',
      title: t.columns.createdAt,
      width: 140,
      render: (_, i) => <span className="order-time">{formatDateTime(i.createdAt)}</span>,
    },
    {
      key: 'actions',
      title: t.columns.actions,
      width: 120,
      render: (_, i) =>
        i.status === 'issued' ? (
          <>
            <Button
              type="link"
              size="small"
              icon={<DownloadOutlined />}
              loading={downloading === i.invoiceId}
              onClick={() => save(i)}
            >
              {t.download}
            </Button>
            {i.hasReversalPdf && (
              <Button
                type="link"
                size="small"
                danger
                icon={<DownloadOutlined />}
                loading={downloading === `${i.invoiceId}:red`}
                onClick={() => save(i, true)}
              >
                {t.redInvoice}
              </Button>
            )}
          </>
        ) : (
          <span className="muted">—</span>
        ),
    },
  ];

  const total = invoices.data?.total ?? 0;
  return (
    <div className="invoice-center">
      <section className="invoice-section">
        <header className="invoice-section__head">
          <h2>{t.invoiceableTitle}</h2>
          <div className="invoice-section__action">
            {selected.length > 0 && (
              <span className="invoice-section__sum">
                {t.selected(selected.length, formatYuan(chosenAmount))}
              </span>
            )}
            <Button type="primary" disabled={selected.length === 0} onClick={() => setFormOpen(true)}>
              {t.request}
            </Button>
          </div>
        </header>
        {invoiceable.isError ? (
          <Alert type="error" showIcon title={invoiceable.error.message} />
        ) : (
          <Table<InvoiceableOrder>
            rowKey="orderId"
            size="small"
            columns={orderColumns}
            dataSource={orders}
            loading={invoiceable.isFetching}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys.map(String)),
            }}
            locale={{ emptyText: <Empty text={t.invoiceableEmpty} /> }}
            pagination={false}
            scroll={{ x: 640, y: 320 }}
          />
        )}
      </section>

      <section className="invoice-section">
        <header className="invoice-section__head">
          <h2>{t.listTitle}</h2>
        </header>
        {invoices.isError && !invoices.data ? (
          <Alert type="error" showIcon title={invoices.error.message} />
        ) : (
          <Table<Invoice>
            rowKey="invoiceId"
            size="middle"
            columns={invoiceColumns}
            dataSource={invoices.data?.list ?? []}
            loading={invoices.isFetching}
            locale={{ emptyText: <Empty text={t.listEmpty} /> }}
            pagination={total > 0 ? tablePagination(total, page, setPage, DEFAULT_PAGE_SIZE) : false}
            scroll={{ x: 760 }}
          />
        )}
      </section>

      <InvoiceFormModal
        open={formOpen}
        orderIds={selected}
        amount={chosenAmount}
        onClose={() => setFormOpen(false)}
        onCreated={(invoice) => {
          setFormOpen(false);
          setSelected([]);
          setPage(1);
          toast.success(invoice.status === 'issued' ? t.issued : t.requested);
        }}
      />
    </div>
  );
}
