import { Button } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { OrderRowContext, OrderTabExtension } from '../extension';
import { formatDateTime } from '../lib/format';
import { orderTexts } from '../texts';
import type { Order } from '../types';
import { AmountCell } from './amount-cell';
import { OrderStatusTag } from './order-status-tag';

/**
 * The columns of an order tab: 商品 (with the order number opening the details), the service's
 * own columns, 金额 (and what was refunded), 状态, 下单时间 and the row's actions.
 */
export function orderColumns<TExtra>({
  extension,
  contextOf,
  onDetail,
  actions,
}: {
  extension?: OrderTabExtension<TExtra>;
  contextOf: (order: Order) => OrderRowContext<TExtra>;
  onDetail: (order: Order) => void;
  actions: (order: Order) => ReactNode;
}): ColumnsType<Order> {
  const extraColumns: ColumnsType<Order> = (extension?.columns ?? []).map((column) => ({
    key: column.key,
    title: column.title,
    width: column.width,
    align: column.align,
    render: (_: unknown, order: Order) => column.render(order, contextOf(order)),
  }));
  return [
    {
      key: 'order',
      title: orderTexts.columns.order,
      render: (_, order) => {
        const title = typeof order.meta?.title === 'string' ? order.meta.title : '';
        return (
          <div className="order-goods">
            <span className="order-goods__name">
              {order.goodsName}
              <span className="order-goods__qty">
                {orderTexts.quantity(order.quantity, order.unit, order.unitSize)}
              </span>
            </span>
            {title && (
              <span className="order-goods__title" title={title}>
                《{title}》
              </span>
            )}
            <span className="order-goods__no">
              {orderTexts.columns.orderNo}
              <Button type="link" className="order-no" onClick={() => onDetail(order)}>
                {order.orderNo}
              </Button>
            </span>
          </div>
        );
      },
    },
    ...extraColumns,
    {
      key: 'amount',
      title: orderTexts.columns.amount,
      width: 110,
      align: 'right',
      render: (_, order) => (
        <AmountCell
          amount={order.amount}
          refundedFen={order.refundedFen}
          refundedAmount={order.refundedAmount}
          refundedText={orderTexts.refunded}
        />
      ),
    },
    {
      key: 'status',
      title: orderTexts.columns.status,
      width: 96,
      render: (_, order) => <OrderStatusTag order={order} />,
    },
    {
      key: 'createdAt',
      title: orderTexts.columns.createdAt,
      width: 140,
      render: (_, order) => <span className="order-time">{formatDateTime(order.createdAt)}</span>,
    },
    {
      key: 'actions',
      title: orderTexts.columns.actions,
      width: 170,
      render: (_, order) => actions(order),
    },
  ];
}
