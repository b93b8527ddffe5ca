/** Wire types of the payment API (docs/api/orders.md, "Paying"). */

/** A QR payment channel. */
export type PayType = 'wx' | 'ali';

/** What the student picks in the payment dialog: a QR channel or a bank transfer. */
export type PayMethod = PayType | 'offline';

export type OrderStatus =
  | 'pending_payment'
  | 'paid'
  | 'processing'
  | 'done'
  | 'cancelled'
  | 'expired'
  | 'refunded';

/** The answer of a service's `freeCheckQrPayCode` (and `/order/pay`). */
export interface PayQr {
  /** Drawn as a QR code locally, never altered; in the sandbox a local 模拟支付 page. */
  codeUrl: string;
  orderNo: string;
  /** The platform's order number (orderNo, or orderNo-2… after coming back to a channel). */
  outTradeNo: string;
  payType: PayType;
  amountFen: number;
  /** Yuan with two decimals, e.g. "26.00". */
  amount: string;
  /** ISO time: the code (and the order's payment time) ends then. */
  expireAt: string;
}

/** The answer of a service's `orderPayStatus` (and `/order/payStatus`); services may add fields. */
export interface PayStatus {
  payStatus: 0 | 1;
  status: OrderStatus | null;
  orderNo: string;
  payChannel: PayMethod | null;
  paidAt: string | null;
  expireAt: string;
  /** A transfer proof waits for an operator. */
  offlinePending: boolean;
}

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

/** Bank-transfer details (/payment/offline/info). */
export interface OfflineInfo {
  enabled: boolean;
  bankName: string;
  accountName: string;
  accountNo: string;
  note: string;
  proofMaxBytes: number;
  /** MIME types, e.g. image/png, application/pdf. */
  proofTypes: string[];
}

/** An uploaded transfer proof (/payment/offline/proof). */
export interface Proof {
  proofId: string;
  status: 'pending' | 'confirmed' | 'rejected';
  statusText: string;
  reviewNote: string | null;
  createdAt: string;
  reviewedAt: string | null;
}
