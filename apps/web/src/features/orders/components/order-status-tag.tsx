import { Tag, Tooltip } from 'antd';
import { orderTexts } from '../texts';
import type { Order, OrderStatus } from '../types';

const COLORS: Record<OrderStatus, string> = {
  pending_payment: 'orange',
  paid: 'blue',
  processing: 'processing',
  done: 'success',
  cancelled: 'default',
  expired: 'default',
  refunded: 'purple',
};

/**
 * The order's status in Chinese; a pending order past its payment time shows 已过期 at once, one
 * whose transfer proof waits for an operator 待确认 (the server's text) with what happens next.
 */
export function OrderStatusTag({
  order,
}: {
  order: Pick<Order, 'status' | 'statusText' | 'canPay' | 'offlinePending' | 'offlinePendingText'>;
}) {
  if (order.offlinePending) {
    return (
      <Tooltip title={order.offlinePendingText}>
        <Tag color="blue" className="order-status">
          {order.statusText}
        </Tag>
      </Tooltip>
    );
  }
  const expired = order.status === 'pending_payment' && !order.canPay;
  return (
    <Tag color={expired ? 'default' : COLORS[order.status]} className="order-status">
      {expired ? orderTexts.expiredLocally : order.statusText}
    </Tag>
  );
}
