import { type Commission, formatYuan } from '@kyfw/contracts';
import { Button, Descriptions, Result, Space } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useCommission } from '../api/get-commission';
import { commissionTexts as T } from '../texts';
import { CommissionPayDialog } from './commission-pay-dialog';
import { CommissionTimeline } from './commission-timeline';

/** After submitting: the commission's number, price and progress, and 去支付 when it has an order. */
export function SubmittedCommission({
  commission,
  onAgain,
}: {
  commission: Commission;
  onAgain: () => void;
}) {
  const [payOpen, setPayOpen] = useState(false);
  const live = useCommission(commission.commissionId);
  const c = live.data ?? commission;
  return (
    <div className="commission-submitted">
      <Result
        status="success"
        title={T.submitted}
        subTitle={
          c.pricing === 'quote' && c.status === 'quoting'
            ? T.submittedQuote
            : c.canPay
              ? T.submittedPay
              : c.statusText
        }
        extra={
          <Space wrap>
            {c.canPay && (
              <Button type="primary" onClick={() => setPayOpen(true)}>
                {T.pay}
              </Button>
            )}
            <Link to={paths['user-order-commission']}>
              <Button>{T.toOrders}</Button>
            </Link>
            <Button onClick={onAgain}>{T.again}</Button>
          </Space>
        }
      />
      <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered>
        <Descriptions.Item label={T.commissionNo}>{c.commissionNo}</Descriptions.Item>
        <Descriptions.Item label={T.status}>{c.statusText}</Descriptions.Item>
        <Descriptions.Item label={c.serviceName}>{c.title}</Descriptions.Item>
        <Descriptions.Item label={T.amount}>
          {c.amount ? formatYuan(c.amount) : T.estimate.quote}
        </Descriptions.Item>
        {c.orderNo && <Descriptions.Item label={T.orderNo}>{c.orderNo}</Descriptions.Item>}
      </Descriptions>
      <h3 className="commission-submitted__timeline">{T.timeline}</h3>
      <CommissionTimeline commission={c} />
      <CommissionPayDialog commission={c} open={payOpen} onClose={() => setPayOpen(false)} />
    </div>
  );
}
