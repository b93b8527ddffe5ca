/**
 * What the orders module gives the operator console (modules/console) — its one way into orders
 * besides `services.orders`: the operator's use cases (offline proofs, refunds, invoices,
 * shipping) and the reads its queues and order pages need. Each takes the orders runtime
 * (`services.orders.runtime`) as other modules' calls take the API object. The console imports
 * nothing else of this module; a new operator screen that needs more adds it here.
 */
export { shipOrder } from './addresses/addresses.service.ts';
export { findInvoice, findIssueSetting, saveIssueMode } from './invoices/invoices.repo.ts';
export { attachReversalPdf, issueInvoice, issueInvoiceWithPdf } from './invoices/invoices.service.ts';
export { findOrderByNo, toOrder } from './orders.repo.ts';
export type { OrdersRuntime } from './orders.runtime.ts';
export { getOrderHistory } from './orders.service.ts';
export { ORDER_STATUS_TEXTS, PAY_CHANNEL_TEXTS } from './orders.texts.ts';
export { money, toOrderView } from './orders.view.ts';
export {
  confirmOfflineProof,
  listProofsForOperator,
  readProofFile,
  rejectOfflineProof,
} from './payments/offline.service.ts';
export { listOrderPayments } from './payments/payments.repo.ts';
export { toRefundView } from './payments/records.service.ts';
export { listOrderRefunds } from './payments/refunds.repo.ts';
export { completeFailedRefundByHand, requestRefund, retryFailedRefund } from './payments/refunds.service.ts';
