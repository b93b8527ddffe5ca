import type { AiBudget } from '@kyfw/contracts';
import { Alert, Card, Col, Progress, Row, Statistic, Table, Tag } from 'antd';
import { useAiBudget } from '../api/ai-budget';
import { consoleTexts } from '../texts';

const t = consoleTexts.aiBudget;
const count = (n: number) => n.toLocaleString('zh-CN');
/** At this share of the daily budget the screen warns. */
const NEAR = 0.8;

type Spend = { calls: number; tokens: number; cost: string };
const spendColumns = [
  { title: t.callsCol, dataIndex: 'calls', render: count },
  { title: t.tokensCol, dataIndex: 'tokens', render: count },
  { title: t.costCol, dataIndex: 'cost' },
];

function SpendTable<R extends Spend>(props: {
  rows: R[];
  rowKey: keyof R & string;
  first: { title: string; render: (row: R) => string };
  /** A column after the spend (e.g. the account's free tokens against its daily limit). */
  last?: { title: string; render: (row: R) => string };
}) {
  return (
    <Table<R>
      size="small"
      rowKey={props.rowKey}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t.empty }}
      dataSource={props.rows}
      columns={[
        { title: props.first.title, key: 'first', render: (_, row) => props.first.render(row) },
        ...spendColumns,
        ...(props.last
          ? [
              {
                title: props.last.title,
                key: 'last',
                render: (_: unknown, row: R) => props.last!.render(row),
              },
            ]
          : []),
      ]}
    />
  );
}

/** Today by task, the top accounts today, the last 7 days (newest first). */
function tables(data: AiBudget) {
  return [
    {
      title: t.byTask,
      table: <SpendTable rows={data.byTask} rowKey="task" first={{ title: t.task, render: (r) => r.task }} />,
    },
    {
      title: t.topAccounts,
      table: (
        <SpendTable
          rows={data.topAccounts}
          rowKey="userId"
          first={{ title: t.account, render: (r) => r.phone ?? `${r.userId.slice(0, 8)}${t.wechatOnly}` }}
          last={{
            title: t.freeTokensCol,
            render: (r) =>
              data.limits.accountTokensPerDay > 0
                ? `${count(r.freeTokens)} / ${count(data.limits.accountTokensPerDay)}`
                : count(r.freeTokens),
          }}
        />
      ),
    },
    {
      title: t.lastDays,
      table: (
        <SpendTable
          rows={[...data.lastDays].reverse()}
          rowKey="day"
          first={{ title: t.day, render: (r) => r.day }}
        />
      ),
    },
  ];
}

function BudgetState({ data }: { data: AiBudget }) {
  if (data.freeCallsStopped) return <Alert type="error" showIcon title={t.stopped} />;
  if (data.usedRatio !== null && data.usedRatio >= NEAR) return <Tag color="orange">{t.near}</Tag>;
  return data.budgetTokens === null ? <Tag>{t.noBudget}</Tag> : <Tag color="green">{t.normal}</Tag>;
}

/**
 * The top of AI 用量: today's tokens and cost against the global daily budget (free AI calls stop
 * when it is reached), top accounts, tasks, the last 7 days and the limits in force.
 */
export function AiBudgetPanel() {
  const { data, isPending } = useAiBudget();
  const percent = data?.usedRatio == null ? 0 : Math.min(100, Math.round(data.usedRatio * 1000) / 10);
  return (
    <Card title={t.title(data?.day ?? '')} loading={isPending && !data} style={{ marginBottom: 16 }}>
      {data && (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} md={12} xl={6}>
              <Statistic
                title={t.tokens}
                value={count(data.today.tokens)}
                suffix={data.budgetTokens === null ? undefined : t.ofBudget(count(data.budgetTokens))}
              />
            </Col>
            <Col xs={12} md={6} xl={6}>
              <Statistic title={t.cost} value={data.today.cost} />
            </Col>
            <Col xs={12} md={6} xl={6}>
              <Statistic title={t.calls} value={count(data.today.calls)} />
            </Col>
            <Col xs={12} md={6} xl={6}>
              <Statistic title={t.freeCalls} value={count(data.freeCallsToday)} />
            </Col>
            <Col xs={12} md={6} xl={6}>
              <Statistic title={t.atTokenLimit} value={count(data.accountsAtTokenLimit)} />
            </Col>
          </Row>
          {data.budgetTokens !== null && (
            <Progress
              aria-label={t.budgetBar}
              percent={percent}
              status={data.freeCallsStopped ? 'exception' : 'normal'}
              strokeColor={!data.freeCallsStopped && percent >= NEAR * 100 ? '#fa8c16' : undefined}
              style={{ marginTop: 16 }}
            />
          )}
          <div style={{ marginTop: 8 }}>
            <BudgetState data={data} />
          </div>
          <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
            {tables(data).map(({ title, table }) => (
              <Col key={title} xs={24} xl={12}>
                <h4>{title}</h4>
                {table}
              </Col>
            ))}
            <Col xs={24} xl={12}>
              <h4>{t.limits}</h4>
              <ul className="muted" style={{ paddingInlineStart: 20, margin: 0 }}>
                <li>{t.accountLimit(data.limits.accountPerMinute, data.limits.accountPerDay)}</li>
                <li>{t.accountTokenLimit(data.limits.accountTokensPerDay)}</li>
                <li>{t.addressLimit(data.limits.addressPerMinute, data.limits.addressPerDay)}</li>
                <li>{t.orderLimit(data.limits.orderMaxCalls, data.limits.orderMaxTokens)}</li>
              </ul>
            </Col>
          </Row>
        </>
      )}
    </Card>
  );
}
