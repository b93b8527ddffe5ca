// The payment API's wire types come from the contracts (packages/contracts/src/api/orders.ts).
export type {
  OfflineInfo,
  OrderStatus,
  PayMethod,
  PayQr,
  PayStatus,
  PayType,
  Proof,
} from '@kyfw/contracts';

/** Where a service's pay calls go (spec §7: each service has its own pair). */
export interface PayEndpoints {
  /** e.g. '/freeCheck/freeCheckQrPayCode': body {orderId, payType} -> PayQr. */
  qrPayCodeUrl: string;
  /** e.g. '/freeCheck/orderPayStatus': body {orderId} -> PayStatus. */
  payStatusUrl: string;
}

/** Pay any of the user's orders (pay again from 我的订单). */
export const ORDER_PAY_ENDPOINTS: PayEndpoints = {
  qrPayCodeUrl: '/order/pay',
  payStatusUrl: '/order/payStatus',
};
