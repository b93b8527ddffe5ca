/** The payment feature's public API: what services use to take a payment. */
export type { PaymentDialogProps, PaymentPanelProps } from './components/payment-dialog';
export { isSandboxCode, PaymentDialog, PaymentPanel } from './components/payment-dialog';
export { QrImage } from './components/qr-image';
export type { PaymentClosedReason, PaymentError, PaymentState, UsePaymentOptions } from './hooks/use-payment';
export { usePayment } from './hooks/use-payment';
export { formatBytes, paymentTexts } from './texts';
export type {
  OfflineInfo,
  OrderStatus,
  PayEndpoints,
  PayMethod,
  PayQr,
  PayStatus,
  PayType,
  Proof,
} from './types';
export { ORDER_PAY_ENDPOINTS } from './types';
