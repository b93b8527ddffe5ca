/** Wire types of the orders API (docs/api/orders.md). */
import type { OrderStatus, PayMethod, Proof } from '../payment';

export type { OrderStatus } from '../payment';

export type ServiceType =
  | 'check'
  | 'reduction'
  | 'aigc_reduction'
  | 'ai_writing'
  | 'search_report'
  | 'tech_search';

/** The tabs of /user/order; `/order/list` takes them as `serviceType`. */
export type OrderTab = 'check' | 'reduction' | 'write';

export interface Order {
  orderId: string;
  orderNo: string;
  serviceType: ServiceType;
  serviceTypeText: string;
  goodsId: string;
  goodsName: string;
  quantity: number;
  unit: string;
  unitSize: number;
  unitPriceFen: number;
  unitPrice: string;
  amountFen: number;
  amount: string;
  refundedFen: number;
  refundedAmount: string;
  status: OrderStatus;
  statusText: string;
  payStatus: 0 | 1;
  payChannel: PayMethod | null;
  payChannelText: string | null;
  createdAt: string;
  paidAt: string | null;
  expireAt: string;
  serviceRef: string | null;
  meta: Record<string, unknown>;
  /** A transfer proof waits for an operator: statusText 待确认, nothing to pay or cancel meanwhile. */
  offlinePending?: boolean;
  /** What happens next while it waits (from the server). */
  offlinePendingText?: string | null;
  canPay: boolean;
  canCancel: boolean;
  canDelete: boolean;
}

export interface Delivery {
  recipientName: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  carrier: string | null;
  trackingNo: string | null;
  shippedAt: string | null;
  statusText: string;
}

export interface OrderDetail extends Order {
  history: { status: string; statusText: string; reason: string; at: string }[];
  payments: {
    time: string;
    method: string;
    methodText: string;
    amountFen: number;
    amount: string;
    status: 'accepted' | 'late' | 'duplicate' | 'amount_mismatch';
    statusText: string;
  }[];
  refunds: {
    refundId: string;
    refundNo: string;
    amountFen: number;
    amount: string;
    reason: string;
    status: 'pending' | 'processing' | 'succeeded' | 'failed';
    statusText: string;
    createdAt: string;
    finishedAt: string | null;
  }[];
  offlineProofs: Proof[];
  delivery: Delivery | null;
  invoice: { invoiceId: string; invoiceNo: string; status: 'requested' | 'issued' } | null;
}

export interface PaymentRecord {
  paymentId: string;
  time: string;
  method: 'wx' | 'ali' | 'offline';
  methodText: string;
  amountFen: number;
  amount: string;
  orderNo: string;
  orderId: string;
  goodsName: string;
  status: string;
  statusText: string;
  refundedFen: number;
  refundedAmount: string;
}

export interface InvoiceableOrder {
  orderId: string;
  orderNo: string;
  goodsName: string;
  amountFen: number;
  amount: string;
  paidAt: string;
}

export type InvoiceTitleType = 'personal' | 'company';

export interface Invoice {
  invoiceId: string;
  invoiceNo: string;
  titleType: InvoiceTitleType;
  title: string;
  taxpayerId: string | null;
  email: string;
  amountFen: number;
  amount: string;
  status: 'requested' | 'issued';
  statusText: string;
  createdAt: string;
  issuedAt: string | null;
  /** When the PDF was e-mailed to `email` (null: not yet). */
  emailedAt: string | null;
  orders: { orderId: string; orderNo: string; goodsName: string; amountFen: number; amount: string }[];
}

export interface InvoiceRequest {
  orderIds: string[];
  titleType: InvoiceTitleType;
  title: string;
  taxpayerId?: string;
  email: string;
}

export interface Address {
  id: string;
  name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  isDefault: boolean;
  updatedAt: string;
}

export interface AddressInput {
  id?: string;
  name: string;
  phone: string;
  province: string;
  city: string;
  district: string;
  detail: string;
  isDefault?: boolean;
}

/** /websiteUser/cityList: province -> city -> district. */
export interface CityNode {
  code: string;
  name: string;
  children?: CityNode[];
}

export interface Page<T> {
  list: T[];
  total: number;
}
