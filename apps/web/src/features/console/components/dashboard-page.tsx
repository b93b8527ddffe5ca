import { Card, Col, Row, Statistic, Table } from 'antd';
import { useNavigate } from 'react-router';
import { useDashboard } from '../api/console-api';
import { consoleTexts } from '../texts';
import { DashboardCharts } from './dashboard-charts';

const t = consoleTexts.dashboard;
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Queues first (what needs a person), then the last 14 days and the failed jobs. */
export function DashboardPage() {
  const { data, isPending } = useDashboard();
  const queues = data?.queues;
  const navigate = useNavigate();
  // Each queue opens its page, when there is one (the server still checks the role there).
  const cards: [string, number | undefined, string | null][] = [
    [t.pendingProofs, queues?.pendingProofs, '/admin/offline'],
    [t.flaggedPayments, queues?.flaggedPayments, null],
    [t.failedRefunds, queues?.failedRefunds, '/admin/refunds'],
    [t.invoicesToIssue, queues?.invoicesToIssue, '/admin/invoices'],
    [t.queuedJobs, queues?.queuedJobs, null],
  ];
  return (
    <>
      <Row gutter={[16, 16]}>
        {cards.map(([title, value, href]) => (
          <Col key={title} xs={12} md={8} xl={4}>
            <Card
              loading={isPending}
              hoverable={href !== null}
              onClick={href ? () => navigate(href) : undefined}
            >
              <Statistic title={title} value={value ?? 0} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card title={t.days} style={{ marginTop: 16 }}>
        {data && data.days.length > 0 && <DashboardCharts days={data.days} />}
        <Table
          size="small"
          rowKey="date"
          loading={isPending}
          pagination={false}
          dataSource={[...(data?.days ?? [])].reverse()}
          columns={[
            { title: t.date, dataIndex: 'date' },
            { title: t.orders, dataIndex: 'orders' },
            { title: t.paidOrders, dataIndex: 'paidOrders' },
            { title: t.revenue, dataIndex: 'revenueFen', render: yuan },
            { title: t.checks, dataIndex: 'checks' },
            { title: t.newUsers, dataIndex: 'newUsers' },
          ]}
        />
      </Card>
      <Card title={t.failedJobs} style={{ marginTop: 16 }}>
        <Table
          size="small"
          rowKey="id"
          loading={isPending}
          pagination={false}
          locale={{ emptyText: t.noFailedJobs }}
          dataSource={data?.failedJobs ?? []}
          columns={[
            { title: t.jobName, dataIndex: 'name' },
            { title: t.jobError, dataIndex: 'lastError' },
            { title: t.jobAt, dataIndex: 'at', render: (v: string) => new Date(v).toLocaleString('zh-CN') },
          ]}
        />
      </Card>
    </>
  );
}
