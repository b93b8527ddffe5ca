import type { ConsoleInvoice } from '@kyfw/contracts';
import { Alert, Button, Card, Popconfirm, Space, Table, Tabs, Upload } from 'antd';
import { useState } from 'react';
import {
  type InvoiceTab,
  invoiceFileUrl,
  useGenerateInvoice,
  useInvoices,
  useStaff,
  useUploadInvoice,
} from '../api/console-api';
import { consoleTexts } from '../texts';

const t = consoleTexts.invoices;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : '');
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Invoices to issue (generate the PDF, or attach the real one), issued ones, and those needing 红冲. */
export function InvoicesPage() {
  const [tab, setTab] = useState<InvoiceTab>('requested');
  const { data, isPending } = useInvoices(tab);
  const staff = useStaff();
  const generate = useGenerateInvoice();
  const upload = useUploadInvoice();
  const canIssue = staff.data?.role === 'admin' || staff.data?.role === 'finance';
  return (
    <Card title={consoleTexts.nav.invoices}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as InvoiceTab)}
        items={Object.entries(t.tabs).map(([key, label]) => ({ key, label }))}
      />
      {tab === 'reversal' && (
        <Alert type="warning" showIcon message={t.reversalHint} style={{ marginBottom: 16 }} />
      )}
      <Table<ConsoleInvoice>
        rowKey="invoiceId"
        loading={isPending}
        locale={{ emptyText: t.empty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: t.invoiceNo, dataIndex: 'invoiceNo' },
          { title: t.title, dataIndex: 'title' },
          { title: t.taxpayerId, dataIndex: 'taxpayerId' },
          { title: t.email, dataIndex: 'email' },
          { title: t.amount, dataIndex: 'amount' },
          {
            title: t.orders,
            render: (_, i) =>
              i.orders.map((o) => (
                <div key={o.orderNo}>
                  {o.orderNo} {o.goodsName} {o.amount}
                  {o.refundedFen > 0 ? `（${o.statusText}，${t.refunded(yuan(o.refundedFen))}）` : ''}
                </div>
              )),
          },
          tab === 'requested'
            ? { title: t.createdAt, render: (_, i) => when(i.createdAt) }
            : { title: t.issuedAt, render: (_, i) => when(i.issuedAt) },
          {
            title: '',
            render: (_, i) =>
              i.status === 'issued' ? (
                <a href={invoiceFileUrl(i.invoiceId)} target="_blank" rel="noreferrer">
                  {t.view}
                </a>
              ) : canIssue ? (
                <Space>
                  <Popconfirm
                    title={t.generateConfirm}
                    onConfirm={() => generate.mutate({ invoiceId: i.invoiceId })}
                  >
                    <Button size="small" type="primary">
                      {t.generate}
                    </Button>
                  </Popconfirm>
                  <Upload
                    accept="application/pdf,.pdf"
                    showUploadList={false}
                    beforeUpload={(file) => {
                      upload.mutate({ invoiceId: i.invoiceId, file });
                      return false;
                    }}
                  >
                    <Button size="small">{t.upload}</Button>
                  </Upload>
                </Space>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
