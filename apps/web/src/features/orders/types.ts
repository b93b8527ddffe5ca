// The orders API's wire types come from the contracts (packages/contracts/src/api/orders.ts).
export type {
  Address,
  AddressInput,
  CityNode,
  Delivery,
  Invoice,
  InvoiceableOrder,
  InvoiceRequest,
  InvoiceTitleType,
  Order,
  OrderDetail,
  OrderStatus,
  OrderTab,
  Page,
  PaymentRecord,
  ServiceType,
} from '@kyfw/contracts';
