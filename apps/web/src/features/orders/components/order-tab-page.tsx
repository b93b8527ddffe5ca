import { formatYuan } from '@kyfw/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { toast } from '../../../stores/ui-store';
import { ORDER_PAY_ENDPOINTS, PaymentDialog } from '../../payment';
import { useCancelOrder } from '../api/cancel-order';
import { useDeleteOrder } from '../api/delete-order';
import { ordersKeys } from '../api/keys';
import { useOrders, useRefreshOrders } from '../api/list-orders';
import type { OrderRowContext, OrderTabExtension } from '../extension';
import { DEFAULT_PAGE_SIZE, formatDateTime, pagination } from '../lib/format';
import { orderTexts } from '../texts';
import type { Order, OrderTab } from '../types';
import { Empty } from './empty';
import { OrderDetailDrawer } from './order-detail-drawer';
import { OrderStatusTag } from './order-status-tag';
import '../orders.css';

export interface OrderTabPageProps<TExtra = unknown> {
  tab: OrderTab;
  extension?: OrderTabExtension<TExtra>;
}

/**
 * One tab of /user/order: the shared order list with pagination (共 {0} 条), the detail drawer and
 * the 去支付 (payment dialog) / 取消 / 删除 actions, plus what the service's extension adds.
 */
export function OrderTabPage<TExtra = unknown>({ tab, extension }: OrderTabPageProps<TExtra>) {
  const [page, setPage] = useState(1);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [paying, setPaying] = useState<Order | null>(null);
  const orders = useOrders(tab, page, DEFAULT_PAGE_SIZE);
  const list = orders.data?.list ?? [];
  const total = orders.data?.total ?? 0;

  const loadExtra = extension?.loadExtra;
  const extra = useQuery({
    queryKey: ordersKeys.extra(
      tab,
      list.map((o) => o.orderId),
    ),
    queryFn: () => (loadExtra ? loadExtra(list) : Promise.resolve({} as Record<string, TExtra>)),
    enabled: Boolean(loadExtra) && list.length > 0,
    staleTime: 0,
  });

  const refresh = useRefreshOrders();
  const cancelOrder = useCancelOrder();
  const deleteOrder = useDeleteOrder();

  const contextOf = (order: Order): OrderRowContext<TExtra> => ({
    extra: extra.data?.[order.orderId],
    refresh,
    pay: setPaying,
    openDetail: (o) => setDetailId(o.orderId),
  });

  function cancel(order: Order) {
    cancelOrder.mutate(order.orderId, { onSuccess: () => toast.success(orderTexts.cancelled) });
  }

  async function remove(order: Order) {
    const deleted = extension?.deleteOrder
      ? await extension.deleteOrder(order)
      : await deleteOrder.mutateAsync(order.orderId).then(
          () => true,
          () => false,
        );
    if (!deleted) return;
    toast.success(orderTexts.deleted);
    if (list.length === 1 && page > 1) setPage(page - 1);
    if (detailId === order.orderId) setDetailId(null);
    refresh();
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when the data or extension change
  const columns = useMemo<ColumnsType<Order>>(() => {
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
                <Button type="link" className="order-no" onClick={() => setDetailId(order.orderId)}>
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
          <div className="order-amount">
            <strong>{formatYuan(order.amount)}</strong>
            {order.refundedFen > 0 && (
              <span className="order-amount__refund">
                {orderTexts.refunded(formatYuan(order.refundedAmount))}
              </span>
            )}
          </div>
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
        render: (_, order) => (
          <Space size={4} wrap className="order-actions">
            {extension?.actions?.(order, contextOf(order))}
            {order.canPay && (
              <Button type="primary" size="small" onClick={() => setPaying(order)}>
                {orderTexts.pay}
              </Button>
            )}
            <Button type="link" size="small" onClick={() => setDetailId(order.orderId)}>
              {orderTexts.detail}
            </Button>
            {order.canCancel && (
              <Popconfirm
                title={orderTexts.cancelConfirm}
                okText={orderTexts.confirmOk}
                cancelText={orderTexts.confirmCancel}
                onConfirm={() => cancel(order)}
              >
                <Button type="link" size="small">
                  {orderTexts.cancel}
                </Button>
              </Popconfirm>
            )}
            {order.canDelete && (
              <Popconfirm
                title={orderTexts.deleteTitle}
                description={orderTexts.deleteConfirm[order.status] ?? orderTexts.deleteConfirmOther}
                okText={orderTexts.confirmOk}
                cancelText={orderTexts.confirmCancel}
                okButtonProps={{ danger: true }}
                styles={{ root: { maxWidth: 360 } }}
                onConfirm={() => remove(order)}
              >
                <Button type="link" size="small" danger>
                  {orderTexts.delete}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ),
      },
    ];
  }, [extension, extra.data, list, page, detailId]);

  if (orders.isError && !orders.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={orderTexts.loadFailed}
        description={orders.error.message}
        action={<Button onClick={() => orders.refetch()}>{orderTexts.retry}</Button>}
      />
    );
  }

  const endpoints = extension?.payEndpoints ?? ORDER_PAY_ENDPOINTS;
  return (
    <div className="order-tab">
      <Table<Order>
        rowKey="orderId"
        size="middle"
        columns={columns}
        dataSource={list}
        loading={orders.isFetching}
        locale={{ emptyText: <Empty text={extension?.emptyText ?? orderTexts.empty[tab]} /> }}
        pagination={total > 0 ? pagination(total, page, setPage) : false}
        scroll={{ x: 780 }}
      />
      <OrderDetailDrawer
        orderId={detailId}
        onClose={() => setDetailId(null)}
        onPay={setPaying}
        onChanged={refresh}
        extension={extension}
        contextOf={contextOf}
      />
      <PaymentDialog
        {...endpoints}
        open={paying !== null}
        orderId={paying?.orderId}
        goodsName={paying?.goodsName}
        amount={paying?.amount}
        orderNo={paying?.orderNo}
        onClose={() => {
          setPaying(null);
          refresh();
        }}
        onPaid={(status) => {
          if (paying) extension?.onPaid?.(paying, status);
          refresh();
        }}
      />
    </div>
  );
}
