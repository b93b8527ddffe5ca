import type {
  ConsoleOrder,
  ConsoleUser,
  FailedJob,
  LlmUsageRow,
  StuckJob,
  StuckNotice,
} from '@kyfw/contracts';
import { Button, Card, Form, Input, Segmented, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { useRequeueStuckJob, useResendNotice, useStuckJobs, useStuckNotices } from '../api/account-jobs-api';
import { useFailedJobs, useLlmUsage, useOrderSearch, useRetryJob, useUserSearch } from '../api/console-api';
import { consoleTexts, orderStatusTexts } from '../texts';
import { AiBudgetPanel } from './ai-budget-panel';
import { AccountRequestsPanel, UserAccountDrawer } from './user-account-drawer';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('zh-CN') : '');
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Users by phone (read-only: no password, no openid) and the orders of the one chosen. */
export function UsersPage() {
  const t = consoleTexts.users;
  const [phone, setPhone] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const users = useUserSearch(phone);
  const search = (
    <>
      <Form
        layout="inline"
        style={{ marginBottom: 16 }}
        onFinish={(v: { phone: string }) => {
          setChosen(null);
          setPhone(v.phone.trim());
        }}
      >
        <Form.Item
          name="phone"
          label={t.phone}
          rules={[{ required: true, pattern: /^\s*1[0-9]{3,10}\s*$/, message: t.phoneHint }]}
        >
          <Input allowClear placeholder={t.phoneHint} style={{ width: 220 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t.search}
        </Button>
      </Form>
      <Table<ConsoleUser>
        rowKey="userId"
        loading={users.isFetching}
        locale={{ emptyText: t.empty }}
        dataSource={users.data ?? []}
        pagination={false}
        columns={[
          { title: t.phone, dataIndex: 'phone' },
          { title: t.realName, dataIndex: 'realName' },
          { title: t.unitName, dataIndex: 'unitName' },
          {
            title: t.status,
            render: (_, u) => <Tag color={u.status === 'active' ? 'green' : 'default'}>{u.statusText}</Tag>,
          },
          { title: t.wechat, render: (_, u) => (u.wechatBound ? t.bound : t.unbound) },
          { title: t.createdAt, render: (_, u) => when(u.createdAt) },
          { title: t.lastLoginAt, render: (_, u) => when(u.lastLoginAt) },
          { title: t.orders, dataIndex: 'orders' },
          { title: t.paid, render: (_, u) => yuan(u.paidFen) },
          {
            title: '',
            render: (_, u) => (
              <Space size="small">
                <Button size="small" onClick={() => setAccount(u.userId)}>
                  {t.detail}
                </Button>
                {u.phone ? (
                  <Button size="small" onClick={() => setChosen(u.phone)}>
                    {t.viewOrders}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {chosen && <UserOrders phone={chosen} />}
      {account && <UserAccountDrawer userId={account} onClose={() => setAccount(null)} />}
    </>
  );
  return (
    <Card title={consoleTexts.nav.users}>
      <Tabs
        items={[
          { key: 'search', label: t.tabSearch, children: search },
          { key: 'requests', label: t.tabRequests, children: <AccountRequestsPanel /> },
        ]}
      />
    </Card>
  );
}

function UserOrders({ phone }: { phone: string }) {
  const o = consoleTexts.orders;
  const { data, isPending } = useOrderSearch({ phone, page: 1, pageSize: 50 });
  return (
    <Card type="inner" title={consoleTexts.users.ordersOf(phone)} style={{ marginTop: 16 }}>
      <Table<ConsoleOrder>
        rowKey="orderId"
        loading={isPending}
        dataSource={data?.list ?? []}
        pagination={false}
        columns={[
          { title: o.orderNo, dataIndex: 'orderNo' },
          { title: o.service, dataIndex: 'serviceTypeText' },
          { title: o.amount, dataIndex: 'amount' },
          { title: o.status, render: (_, r) => orderStatusTexts[r.status] ?? r.statusText },
          { title: o.createdAt, render: (_, r) => when(r.createdAt) },
        ]}
      />
    </Card>
  );
}

/** Jobs that used up their attempts (admin): the error, and 重新排队. */
export function JobsPage() {
  const t = consoleTexts.jobs;
  const { data, isPending } = useFailedJobs();
  const retry = useRetryJob();
  const failed = (
    <Table<FailedJob>
      rowKey="jobId"
      loading={isPending}
      locale={{ emptyText: t.empty }}
      dataSource={data ?? []}
      pagination={false}
      columns={[
        { title: t.name, dataIndex: 'name' },
        { title: t.attempts, render: (_, j) => `${j.attempts}/${j.maxAttempts}` },
        { title: t.lastError, dataIndex: 'lastError' },
        { title: t.updatedAt, render: (_, j) => when(j.updatedAt) },
        {
          title: '',
          render: (_, j) => (
            <Button
              size="small"
              loading={retry.isPending && retry.variables?.jobId === j.jobId}
              onClick={() => retry.mutate({ jobId: j.jobId })}
            >
              {t.retry}
            </Button>
          ),
        },
      ]}
    />
  );
  return (
    <Card title={consoleTexts.nav.jobs}>
      <Tabs
        items={[
          { key: 'failed', label: t.tabFailed, children: failed },
          { key: 'stuck', label: t.tabStuck, children: <StuckJobs /> },
          { key: 'notices', label: t.tabNotices, children: <StuckNotices /> },
        ]}
      />
    </Card>
  );
}

/** Jobs past their lease or queued too long, with 重新排队 (the server applies it only while still stuck). */
function StuckJobs() {
  const t = consoleTexts.jobs;
  const { data, isPending } = useStuckJobs();
  const requeue = useRequeueStuckJob();
  return (
    <>
      <p style={{ color: '#666' }}>{t.stuckNote}</p>
      <Table<StuckJob>
        rowKey="jobId"
        loading={isPending}
        locale={{ emptyText: t.stuckEmpty }}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: t.name, dataIndex: 'name' },
          {
            title: t.stuckState,
            render: (_, j) => (
              <Tag color={j.status === 'running' ? 'orange' : 'blue'}>
                {j.status === 'running' ? t.stuckRunning : t.stuckQueued}
              </Tag>
            ),
          },
          { title: t.stuckFor, render: (_, j) => t.minutes(j.stuckMinutes) },
          {
            title: t.progress,
            render: (_, j) => `${j.progress}%${j.progressText ? ` ${j.progressText}` : ''}`,
          },
          { title: t.attempts, render: (_, j) => `${j.attempts}/${j.maxAttempts}` },
          { title: t.worker, render: (_, j) => j.lockedBy ?? '—' },
          {
            title: '',
            render: (_, j) => (
              <Button
                size="small"
                loading={requeue.isPending && requeue.variables === j.jobId}
                onClick={() =>
                  requeue
                    .mutateAsync(j.jobId)
                    .then(() => toast.success(t.requeued))
                    .catch(() => undefined)
                }
              >
                {t.retry}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** Commission e-mail notices that did not go out, with 重新发送 (only while still stuck). */
function StuckNotices() {
  const t = consoleTexts.jobs;
  const { data, isPending } = useStuckNotices();
  const resend = useResendNotice();
  return (
    <>
      <p style={{ color: '#666' }}>{t.noticesNote}</p>
      <Table<StuckNotice>
        rowKey="noticeId"
        loading={isPending}
        locale={{ emptyText: t.noticesEmpty }}
        dataSource={data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t.commissionNo, dataIndex: 'commissionNo' },
          { title: t.noticeKind, dataIndex: 'kindText' },
          { title: t.email, dataIndex: 'email' },
          {
            title: t.stuckState,
            render: (_, n) => <Tag color={n.status === 'sending' ? 'orange' : 'red'}>{n.statusText}</Tag>,
          },
          { title: t.stuckFor, render: (_, n) => t.minutes(n.stuckMinutes) },
          { title: t.attempts, dataIndex: 'attempts' },
          { title: t.lastError, render: (_, n) => n.lastError ?? '—' },
          {
            title: '',
            render: (_, n) => (
              <Button
                size="small"
                loading={resend.isPending && resend.variables === n.noticeId}
                onClick={() =>
                  resend
                    .mutateAsync(n.noticeId)
                    .then(() => toast.success(t.resent))
                    .catch(() => undefined)
                }
              >
                {t.resend}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}

/** LLM tokens and cost per day, per task and per order, from the llm_usage table. */
export function LlmUsagePage() {
  const t = consoleTexts.llmUsage;
  const [days, setDays] = useState(14);
  const { data, isPending } = useLlmUsage(days);
  const table = (rows: LlmUsageRow[] | undefined, keyTitle: string) => (
    <Table<LlmUsageRow>
      rowKey="key"
      loading={isPending}
      locale={{ emptyText: t.empty }}
      dataSource={rows ?? []}
      pagination={false}
      columns={[
        { title: keyTitle, dataIndex: 'key' },
        { title: t.calls, dataIndex: 'calls' },
        { title: t.promptTokens, dataIndex: 'promptTokens' },
        { title: t.completionTokens, dataIndex: 'completionTokens' },
        { title: t.cost, dataIndex: 'cost' },
      ]}
    />
  );
  return (
    <>
      <AiBudgetPanel />
      <Card
        title={consoleTexts.nav.llmUsage}
        extra={
          <Segmented
            aria-label={t.range}
            value={days}
            onChange={(v) => setDays(Number(v))}
            options={[7, 14, 30, 90].map((n) => ({ value: n, label: t.days(n) }))}
          />
        }
      >
        <Tabs
          items={[
            { key: 'day', label: t.byDay, children: table(data?.byDay, t.key.day) },
            { key: 'task', label: t.byTask, children: table(data?.byTask, t.key.task) },
            { key: 'order', label: t.byOrder, children: table(data?.byOrder, t.key.order) },
          ]}
        />
      </Card>
    </>
  );
}
