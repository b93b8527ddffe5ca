import {
  CITATION_OPTIONS,
  type CommissionFile,
  type ConsoleCommission,
  DELIVERY_OPTIONS,
  formatDate,
  formatYuan,
  SEARCH_DATABASES,
  TECH_SEARCH_SCOPES,
  URGENCY_OPTIONS,
} from '@kyfw/contracts';
import {
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import { CommissionFiles, CommissionTimeline } from '../commission';
import {
  type ConsoleCommissionFilter,
  useComplete,
  useConsoleCommission,
  useConsoleCommissions,
  useConsoleDownload,
  useQuote,
  useUploadReport,
} from './commission-console-api';
import { consoleCommissionTexts as T } from './console-texts';

type Status = NonNullable<ConsoleCommissionFilter['status']>;
const FILTERS: (Status | 'all')[] = [
  'all',
  'quoting',
  'processing',
  'pending_payment',
  'done',
  'refunded',
  'cancelled',
];

/**
 * /admin/commission: the fulfilment queue — quote a 成果评价, upload the stamped report, mark done
 * (the server checks the role: fulfilment or admin, and audits each step).
 */
export function CommissionConsolePage() {
  const [status, setStatus] = useState<Status | 'all'>('processing');
  const [page, setPage] = useState(1);
  const filter: ConsoleCommissionFilter = {
    status: status === 'all' ? undefined : status,
    page,
    pageSize: 20,
  };
  const list = useConsoleCommissions(filter);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <div className="console-page">
      <h2>{T.title}</h2>
      <Segmented<Status | 'all'>
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? T.statusAll : T.statuses[f] }))}
      />
      <Table<ConsoleCommission>
        style={{ marginTop: 16 }}
        rowKey="commissionId"
        size="middle"
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (total) => `共 ${total} 条`,
        }}
        columns={[
          { key: 'no', title: T.columns.no, dataIndex: 'commissionNo', width: 200 },
          { key: 'service', title: T.columns.service, dataIndex: 'serviceName', width: 120 },
          { key: 'title', title: T.columns.title, dataIndex: 'title', ellipsis: true },
          {
            key: 'contact',
            title: T.columns.contact,
            width: 130,
            render: (_v, c) => `${c.contactName} ${c.contactPhone}`,
          },
          {
            key: 'amount',
            title: T.columns.amount,
            width: 100,
            render: (_v, c) => formatYuan(c.amount),
          },
          { key: 'status', title: T.columns.status, width: 90, render: (_v, c) => <Tag>{c.statusText}</Tag> },
          {
            // 预计完成日期 (recorded at payment; the queue is sorted by it), 已超期, and the client's wish.
            key: 'due',
            title: T.columns.due,
            width: 140,
            render: (_v, c) => (
              <div className="commission-due">
                <div>
                  {c.dueDate ?? '—'}
                  {c.overdue && (
                    <Tag color="red" style={{ marginInlineStart: 6 }}>
                      {T.overdue}
                    </Tag>
                  )}
                </div>
                {c.deadline && <div className="muted">{T.columns.deadline(c.deadline)}</div>}
              </div>
            ),
          },
          {
            key: 'at',
            title: T.columns.at,
            width: 150,
            render: (_v, c) => formatDate(c.createdAt, 'YYYY-MM-DD HH:mm'),
          },
          {
            key: 'open',
            title: '',
            width: 80,
            render: (_v, c) => (
              <Button type="link" onClick={() => setOpenId(c.commissionId)}>
                {T.open}
              </Button>
            ),
          },
        ]}
      />
      <FulfilmentDrawer commissionId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}

/** The forms' option values as their labels (查新范围 global -> 国内外 …). */
const OPTION_LABELS: Record<string, string> = Object.fromEntries(
  [
    ...SEARCH_DATABASES,
    ...CITATION_OPTIONS,
    ...TECH_SEARCH_SCOPES,
    ...URGENCY_OPTIONS,
    ...DELIVERY_OPTIONS,
  ].map((o) => [o.value, o.label]),
);

function formValue(value: unknown): string {
  if (typeof value === 'string') return OPTION_LABELS[value] ?? value;
  if (Array.isArray(value))
    return value
      .map((v, i) =>
        typeof v === 'object' && v !== null
          ? `${i + 1}. ${Object.values(v as Record<string, unknown>)
              .filter(Boolean)
              .join('，')}`
          : (OPTION_LABELS[String(v)] ?? String(v)),
      )
      .join('\n');
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value ?? '');
}

function FulfilmentDrawer({ commissionId, onClose }: { commissionId: string | null; onClose: () => void }) {
  const detail = useConsoleCommission(commissionId);
  const quote = useQuote();
  const upload = useUploadReport();
  const complete = useComplete();
  const download = useConsoleDownload();
  const c = detail.data;
  const fileList = (files: CommissionFile[]) =>
    c && (
      <CommissionFiles
        files={files}
        emptyText={T.noFiles}
        busyId={download.isPending ? download.variables?.fileId : undefined}
        onDownload={(f) =>
          download.mutate({ commissionId: c.commissionId, fileId: f.fileId, fileName: f.fileName })
        }
      />
    );
  return (
    <Drawer
      open={commissionId !== null}
      onClose={onClose}
      size={720}
      title={c ? `${c.serviceName} ${c.commissionNo}` : ''}
      destroyOnHidden
    >
      {c && (
        <div className="commission-detail">
          <p className="commission-detail__title">{c.title}</p>
          <p className="muted">
            {c.statusText} · {formatYuan(c.amount)} {c.orderNo ? `· ${c.orderNo}` : ''} · {T.phone}{' '}
            {c.userPhone ?? '—'}
          </p>
          <CommissionTimeline commission={c} vertical />
          {c.status === 'quoting' ||
          (c.pricing === 'quote' && c.status === 'pending_payment' && !c.canPay) ? (
            <>
              <h3>{T.quote}</h3>
              <Form
                layout="inline"
                onFinish={(v: { amount: number; note?: string }) =>
                  quote.mutate({ commissionId: c.commissionId, amount: v.amount, note: v.note })
                }
              >
                <Form.Item
                  name="amount"
                  label={T.quoteAmount}
                  rules={[{ required: true, message: T.quoteRequired }]}
                >
                  <InputNumber min={1} max={200000} precision={0} />
                </Form.Item>
                <Form.Item name="note" label={T.quoteNote}>
                  <Input maxLength={200} style={{ width: 220 }} />
                </Form.Item>
                <Button type="primary" htmlType="submit" loading={quote.isPending}>
                  {T.quoteSubmit}
                </Button>
              </Form>
            </>
          ) : null}
          {c.status === 'processing' && (
            <>
              <h3>{T.upload}</h3>
              <Space wrap>
                <Upload
                  accept=".pdf,.doc,.docx,.txt"
                  showUploadList={false}
                  customRequest={({ file, onSuccess, onError }) =>
                    upload.mutate(
                      { commissionId: c.commissionId, file: file as File },
                      { onSuccess: () => onSuccess?.(null), onError: (e) => onError?.(e as Error) },
                    )
                  }
                >
                  <Button loading={upload.isPending}>{T.upload}</Button>
                </Upload>
                <Popconfirm title={T.completeConfirm} onConfirm={() => complete.mutateAsync(c.commissionId)}>
                  <Button type="primary" disabled={c.reports.length === 0} loading={complete.isPending}>
                    {T.complete}
                  </Button>
                </Popconfirm>
              </Space>
              <p className="muted">{T.uploadHelp}</p>
            </>
          )}
          <h3>{T.reports}</h3>
          {fileList(c.reports)}
          {c.notices.length > 0 && (
            <>
              <h3>{T.notices}</h3>
              <ul className="commission-notices">
                {c.notices.map((n) => (
                  <li key={`${n.kindText}-${n.email}-${n.sentAt ?? n.status}`}>
                    {n.kindText} · {n.email} ·{' '}
                    <Tag color={n.status === 'sent' ? 'green' : undefined}>{n.statusText}</Tag>
                    {n.sentAt && formatDate(n.sentAt, 'YYYY-MM-DD HH:mm')}
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>{T.files}</h3>
          {fileList(c.files)}
          <h3>{T.form}</h3>
          <Descriptions column={1} size="small" bordered>
            {Object.keys(T.labels)
              .filter((k) => k in c.form)
              .map((k) => [k, c.form[k]] as const)
              .map(([k, v]) => (
                <Descriptions.Item key={k} label={T.labels[k]}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{formValue(v)}</span>
                </Descriptions.Item>
              ))}
          </Descriptions>
        </div>
      )}
    </Drawer>
  );
}
