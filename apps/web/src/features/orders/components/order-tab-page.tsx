import { Alert, Button, Table } from 'antd';
import { useState } from 'react';
import { tablePagination } from '../../../lib/pagination';
import { ORDER_PAY_ENDPOINTS, PaymentDialog } from '../../payment';
import { useOrders, useOrdersExtra, useRefreshOrders } from '../api/list-orders';
import type { OrderRowContext, OrderTabExtension } from '../extension';
import { DEFAULT_PAGE_SIZE } from '../lib/format';
import { orderTexts } from '../texts';
import type { Order, OrderTab } from '../types';
import { Empty } from './empty';
import { orderColumns } from './order-columns';
import { OrderDetailDrawer } from './order-detail-drawer';
import { OrderRowActions } from './order-row-actions';
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

  const extra = useOrdersExtra(tab, list, extension?.loadExtra);

  const refresh = useRefreshOrders();

  const contextOf = (order: Order): OrderRowContext<TExtra> => ({
    extra: extra.data?.[order.orderId],
    refresh,
    pay: setPaying,
    openDetail: (o) => setDetailId(o.orderId),
  });

  const onDeleted = (order: Order) => {
    // The last row of a later page is gone: show the page before.
    if (list.length === 1 && page > 1) setPage(page - 1);
    if (detailId === order.orderId) setDetailId(null);
    refresh();
  };

  const columns = orderColumns({
    extension,
    contextOf,
    onDetail: (order) => setDetailId(order.orderId),
    actions: (order) => (
      <OrderRowActions
        order={order}
        context={contextOf(order)}
        extension={extension}
        onPay={setPaying}
        onDetail={(o) => setDetailId(o.orderId)}
        onDeleted={onDeleted}
      />
    ),
  });

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
        pagination={total > 0 ? tablePagination(total, page, setPage, DEFAULT_PAGE_SIZE) : false}
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
