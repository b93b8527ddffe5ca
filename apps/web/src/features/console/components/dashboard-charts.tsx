import type { Dashboard } from '@kyfw/contracts';
import { Col, Row } from 'antd';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { consoleTexts } from '../texts';

const t = consoleTexts.dashboard;

/**
 * The last days as charts (recharts, only in the console's lazy chunk): orders, paid orders,
 * checks and new users per day as lines; revenue per day as bars (yuan).
 */
export function DashboardCharts({ days }: { days: Dashboard['days'] }) {
  const data = days.map((d) => ({ ...d, day: d.date.slice(5), revenue: d.revenueFen / 100 }));
  return (
    <Row gutter={16}>
      <Col xs={24} xl={14}>
        <div className="console-chart" role="img" aria-label={t.countsChart}>
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Line
                type="monotone"
                dataKey="orders"
                name={t.orders}
                stroke="#1f4e8c"
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="paidOrders"
                name={t.paidOrders}
                stroke="#52c41a"
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="checks"
                name={t.checks}
                stroke="#fa8c16"
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="newUsers"
                name={t.newUsers}
                stroke="#722ed1"
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </Col>
      <Col xs={24} xl={10}>
        <div className="console-chart" role="img" aria-label={t.revenueChart}>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="day" />
              <YAxis />
              <Tooltip />
              <Legend />
              <Bar dataKey="revenue" name={t.revenue} fill="#1f4e8c" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Col>
    </Row>
  );
}
