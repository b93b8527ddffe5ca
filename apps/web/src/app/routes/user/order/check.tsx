import { CheckOrderList } from '../../../../features/check';

/**
 * 查重订单. Free checks have no order, so /order/list (and with it the OrderTabPage extension point)
 * would miss them: the check feature lists every check from /freeCheck/orderList, with the rate and
 * the check's actions, and opens the orders drawer for a paid check's order details.
 */
export default function CheckOrdersPage() {
  return <CheckOrderList />;
}
