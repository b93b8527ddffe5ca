/** The orders feature's public API: the account pages and the extension point for services. */

export { isValidCreditCode } from '@kyfw/contracts';
export { AddressBook } from './components/address-book';
export { InvoiceCenter } from './components/invoice-center';
export type { OrderDetailDrawerProps } from './components/order-detail-drawer';
export { OrderDetailDrawer } from './components/order-detail-drawer';
export { OrderStatusTag } from './components/order-status-tag';
export type { OrderTabPageProps } from './components/order-tab-page';
export { OrderTabPage } from './components/order-tab-page';
export { PaymentRecordsTable } from './components/payment-records-table';
export type { OrderColumn, OrderRowContext, OrderTabExtension } from './extension';
export { defaultDeliverable } from './extension';
export { addressTexts, invoiceTexts, orderTexts, paymentRecordTexts } from './texts';
export type * from './types';
