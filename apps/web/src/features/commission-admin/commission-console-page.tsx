import {
  CITATION_OPTIONS,
  type CommissionFile,
  type ConsoleCommission,
  consoleCommissionApi,
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
import { useEffect, useState } from 'react';
import { CommissionFiles, CommissionTimeline } from '../commission';
import { downloadCsv, TableTools } from '../console';
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
type Sort = NonNullable<ConsoleCommissionFilter['sort']>;
/** The tabs in the order work flows: 待报价 first, then 处理中 (what the operators act on). */
const FILTERS: (Status | 'all')[] = [
  'quoting',
  'processing',
  'pending_payment',
  'done',
  'refunded',
  'cancelled',
  'all',
];
/** Where work waits: the queue opens on the first of these with a commission in it. */
const WORK: Status[] = ['quoting', 'processing'];

/** The tab to open: the first with work waiting, else 全部. */
export function openingTab(counts: Record<Status, number>): Status | 'all' {
  return WORK.find((s) => counts[s] > 0) ?? 'all';
}

/**
 * /admin/commission: the fulfilment queue — quote a 成果评价, upload the stamped report, mark done
 * (the server checks the role: fulfilment or admin, and audits each step). It opens where work
 * waits; each tab shows its count under the search and dates; 导出 CSV exports the same filter.
 */
export function CommissionConsolePage() {
  // undefined until the first answer's counts say where work waits.
  const [status, setStatus] = useState<Status | 'all' | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState<{ q?: string; from?: string; to?: string; sort: Sort }>({
    sort: 'due',
  });
  const filter: ConsoleCommissionFilter = {
    ...search,
    status: status === 'all' || status === undefined ? undefined : status,
    page,
    pageSize: 20,
  };
  const list = useConsoleCommissions(filter);
  const counts = list.data?.counts;
  useEffect(() => {
    if (status === undefined && counts) setStatus(openingTab(counts));
  }, [status, counts]);
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const refilter = (patch: Partial<typeof search>) => {
    setSearch({ ...search, ...patch });
    setPage(1);
  };
  return (
    <div className="console-page">
      <h2>{T.title}</h2>
      <TableTools<Sort>
        searchPlaceholder={T.searchPlaceholder}
        onSearch={(q) => refilter({ q })}
        rangeLabel={T.range}
        onRange={(range) => refilter(range)}
        sorts={[
          { value: 'due', label: T.sorts.due },
          { value: 'newest', label: T.sorts.newest },
          { value: 'oldest', label: T.sorts.oldest },
        ]}
        sort={search.sort}
        onSort={(sort) => refilter({ sort })}
        exporting={exporting}
        onExport={() => {
          setExporting(true);
          const { page: _p, pageSize: _s, ...exported } = filter;
          downloadCsv(consoleCommissionApi.export.path, exported, T.exportName)
            .catch(() => undefined)
            .finally(() => setExporting(false));
        }}
      />
      <div className="console-tabs-scroll">
        <Segmented<Status | 'all'>
          value={status ?? 'all'}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={FILTERS.map((f) => {
            const n = f === 'all' ? total : counts?.[f];
            const label = f === 'all' ? T.statusAll : T.statuses[f];
            return { value: f, label: n === undefined ? label : `${label} ${n}` };
          })}
        />
      </div>
      <Table<ConsoleCommission>
        style={{ marginTop: 16 }}
        rowKey="commissionId"
        size="middle"
        scroll={{ x: 1000 }}
        loading={list.isPending || status === undefined}
        dataSource={status === undefined ? [] : (list.data?.list ?? [])}
        pagination={{
          current: page,
          pageSize: 20,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (n) => `共 ${n} 条`,
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
