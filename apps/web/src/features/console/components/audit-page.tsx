import type { AuditEntry } from '@kyfw/contracts';
import { Button, Card, Form, Input, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { type AuditFilter, useAudit } from '../api/console-api';
import { CONSOLE_PAGE_SIZE, serverPagination } from '../lib/table-pagination';
import { consoleTexts } from '../texts';

const t = consoleTexts.audit;
const COLORS = { ok: 'green', refused: 'red', invalid: 'gold', failed: 'orange' } as const;
const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/**
 * The audit log (admin): newest first, filtered by operator, action and outcome. Reading it writes
 * nothing, and the pages after the first hold to the rows up to the first page's top one
 * (`beforeId`), so others acting meanwhile do not shift them; 刷新 goes back to the newest.
 */
export function AuditPage() {
  const [filter, setFilter] = useState<AuditFilter>({ page: 1, pageSize: CONSOLE_PAGE_SIZE });
  const { data, isPending, refetch } = useAudit(filter);
  const turn = (next: AuditFilter) =>
    setFilter({ ...next, beforeId: next.page === 1 ? undefined : (filter.beforeId ?? data?.list[0]?.id) });
  return (
    <Card>
      <Form
        layout="inline"
        style={{ marginBottom: 16 }}
        onFinish={(values: Omit<AuditFilter, 'page' | 'pageSize'>) =>
          setFilter({ ...values, page: 1, pageSize: CONSOLE_PAGE_SIZE })
        }
      >
        <Form.Item name="username" label={t.who}>
          <Input allowClear placeholder={t.filterUser} />
        </Form.Item>
        <Form.Item name="action" label={t.action}>
          <Input allowClear placeholder={t.filterAction} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="outcome" label={t.outcome}>
          <Select
            allowClear
            style={{ width: 150 }}
            options={Object.entries(t.outcomes).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {consoleTexts.orders.search}
        </Button>
        <Button
          style={{ marginInlineStart: 8 }}
          onClick={() =>
            filter.page === 1 && !filter.beforeId
              ? refetch()
              : setFilter({ ...filter, page: 1, beforeId: undefined })
          }
        >
          {t.refresh}
        </Button>
      </Form>
      <Table<AuditEntry>
        rowKey="id"
        tableLayout="fixed"
        size="small"
        loading={isPending}
        dataSource={data?.list ?? []}
        pagination={serverPagination(filter, turn, data?.total)}
        columns={[
          {
            title: t.at,
            dataIndex: 'at',
            width: 170,
            render: (v: string) => new Date(v).toLocaleString('zh-CN'),
          },
          { title: t.who, dataIndex: 'username', width: 110 },
          { title: t.role, dataIndex: 'roleText', width: 90 },
          { title: t.action, dataIndex: 'actionText', width: 130 },
          { title: t.target, dataIndex: 'target' },
          {
            title: t.outcome,
            dataIndex: 'outcome',
            width: 100,
            render: (v: AuditEntry['outcome']) => <Tag color={COLORS[v]}>{t.outcomes[v]}</Tag>,
          },
          { title: t.ip, dataIndex: 'ip', width: 110 },
          {
            title: t.change,
            render: (_, e) => (
              <code style={{ fontSize: 12, wordBreak: 'break-all' }}>
                {[show(e.before), show(e.after), show(e.detail)].filter(Boolean).join(' → ')}
              </code>
            ),
          },
        ]}
      />
    </Card>
  );
}
