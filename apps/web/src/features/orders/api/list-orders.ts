import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import type { Order, OrderTab, Page } from '../types';
import { ordersKeys } from './keys';

/** POST /order/list: one page of the user's orders of a tab (check, reduction, write). */
export function listOrders(params: { serviceType?: OrderTab | string; page: number; pageSize: number }) {
  return request<Page<Order>>('/order/list', { data: params });
}

export function useOrders(tab: OrderTab, page: number, pageSize: number) {
  return useQuery({
    queryKey: ordersKeys.list(tab, page, pageSize),
    queryFn: async () => {
      const [error, data] = await listOrders({ serviceType: tab, page, pageSize });
      if (error) throw error;
      return { list: data?.list ?? [], total: data?.total ?? 0 };
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * Reloads every order list and detail (after a payment dialog closes, or when a service asks) —
 * and every other view on the page, since a service shows its own records of the same orders
 * beside the table (检索查新订单: the commissions above their orders). Paying in the lower table
 * then updates the row above at once (issue 23), as paying from the row above updates the table.
 */
export function useRefreshOrders() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries();
  };
}

/** What a service's tab extension loads for the orders on screen (its `loadExtra`), keyed by order id. */
export function useOrdersExtra<TExtra>(
  tab: OrderTab,
  orders: Order[],
  loadExtra: ((orders: Order[]) => Promise<Record<string, TExtra>>) | undefined,
) {
  return useQuery({
    queryKey: ordersKeys.extra(
      tab,
      orders.map((o) => o.orderId),
    ),
    queryFn: () => (loadExtra ? loadExtra(orders) : Promise.resolve({} as Record<string, TExtra>)),
    enabled: Boolean(loadExtra) && orders.length > 0,
    staleTime: 0,
  });
}
