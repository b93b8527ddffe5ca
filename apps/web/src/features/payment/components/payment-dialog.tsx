import {
  AlipayCircleFilled,
  BankOutlined,
  CheckCircleFilled,
  ClockCircleOutlined,
  ExclamationCircleFilled,
  ExportOutlined,
  LoadingOutlined,
  WechatFilled,
} from '@ant-design/icons';
import { formatYuan } from '@kyfw/contracts';
import { Button, Tag } from 'antd';
import type { ReactNode } from 'react';
import { BaseModal } from '../../../components/ui/base-modal';
import type { PaymentState, UsePaymentOptions } from '../hooks/use-payment';
import { usePayment } from '../hooks/use-payment';
import { formatRemaining, paymentTexts } from '../texts';
import type { PayMethod, PayStatus, PayType } from '../types';
import { OfflinePanel } from './offline-panel';
import { QrImage } from './qr-image';
import '../payment.css';

const METHOD_ICONS: Record<PayMethod, ReactNode> = {
  wx: <WechatFilled />,
  ali: <AlipayCircleFilled />,
  offline: <BankOutlined />,
};

/** True for a sandbox provider's code: it opens our local 模拟支付 page (never a real platform URL). */
export function isSandboxCode(codeUrl: string): boolean {
  try {
    return new URL(codeUrl, window.location.href).pathname.startsWith('/__sandbox/pay/');
  } catch {
    return false;
  }
}

export interface PaymentDialogProps<S extends PayStatus = PayStatus>
  extends Omit<UsePaymentOptions<S>, 'active' | 'orderId'> {
  open: boolean;
  orderId: string | null | undefined;
  /** Closing leaves the order pending; it stays payable from 我的订单 until it expires. */
  onClose: () => void;
  /** Default 订单支付. */
  title?: ReactNode;
  /** Shown before the code arrives, e.g. the goods of a just-created order. */
  goodsName?: ReactNode;
  /** Yuan ("26.00") as the order says; the code's amount wins once it is there. */
  amount?: string | null;
  orderNo?: string | null;
  /** Offer 线下转账 (when the server has it enabled); default true. */
  allowOffline?: boolean;
  /** Close by itself after success (onPaid runs first); default true. */
  closeOnPaid?: boolean;
  /** Extra content under the summary (e.g. the service's terms). */
  children?: ReactNode;
}

/**
 * The payment dialog of every service: 微信支付 / 支付宝 QR codes drawn locally, 线下转账 with a proof
 * upload, the amount in CNY, a countdown to expiry, and the pay status polled every 3 s. On success:
 * toast 支付成功, `onPaid(status)`, then it closes (unless `closeOnPaid` is false).
 */
export function PaymentDialog<S extends PayStatus = PayStatus>(props: PaymentDialogProps<S>) {
  const { open, orderId, onClose, title = paymentTexts.title, closeOnPaid = true } = props;
  const payment = usePayment<S>({
    qrPayCodeUrl: props.qrPayCodeUrl,
    payStatusUrl: props.payStatusUrl,
    orderId,
    active: open,
    initialMethod: props.initialMethod,
    pollIntervalMs: props.pollIntervalMs,
    onStatus: props.onStatus,
    onPaid: (status) => {
      props.onPaid?.(status);
      if (closeOnPaid) onClose();
    },
  });
  return (
    <BaseModal
      open={open}
      onClose={onClose}
      title={title}
      variant="dialog"
      width={580}
      className="pay-dialog"
      footer={
        <div className="pay-dialog__footer">
          <span className="muted">{payment.paid ? '' : paymentTexts.closeHint}</span>
          <Button onClick={onClose}>{payment.paid ? paymentTexts.done : paymentTexts.close}</Button>
        </div>
      }
    >
      {orderId && (
        <PaymentPanel
          payment={payment}
          orderId={orderId}
          goodsName={props.goodsName}
          amount={props.amount}
          orderNo={props.orderNo}
          allowOffline={props.allowOffline ?? true}
        >
          {props.children}
        </PaymentPanel>
      )}
    </BaseModal>
  );
}

export interface PaymentPanelProps<S extends PayStatus = PayStatus> {
  payment: PaymentState<S>;
  orderId: string;
  goodsName?: ReactNode;
  amount?: string | null;
  orderNo?: string | null;
  allowOffline?: boolean;
  children?: ReactNode;
}

/** The dialog's content, for a service that wants the payment inline on its page (with usePayment). */
export function PaymentPanel<S extends PayStatus = PayStatus>({
  payment,
  orderId,
  goodsName,
  amount: amountProp,
  orderNo: orderNoProp,
  allowOffline = true,
  children,
}: PaymentPanelProps<S>) {
  const amount = payment.qr?.amount ?? amountProp ?? null;
  const orderNo = payment.qr?.orderNo ?? payment.status?.orderNo ?? orderNoProp ?? null;
  const methods: PayMethod[] = allowOffline ? ['wx', 'ali', 'offline'] : ['wx', 'ali'];

  return (
    <div className="pay-panel" data-order-id={orderId}>
      <div className="pay-summary">
        <div className="pay-summary__info">
          {goodsName && (
            <p>
              <span className="pay-summary__label">{paymentTexts.goods}</span>
              <span className="pay-summary__goods">{goodsName}</span>
            </p>
          )}
          {orderNo && (
            <p>
              <span className="pay-summary__label">{paymentTexts.orderNo}</span>
              <span className="pay-summary__mono">{orderNo}</span>
            </p>
          )}
        </div>
        <div className="pay-summary__amount">
          <span className="pay-summary__label">{paymentTexts.amountDue}</span>
          <strong data-testid="pay-amount">{amount ? formatYuan(amount) : '—'}</strong>
        </div>
      </div>
      {children}

      {payment.paid ? (
        <div className="pay-result pay-result--success" role="status">
          <CheckCircleFilled />
          <strong>{paymentTexts.paid}</strong>
          <span>{paymentTexts.paidDetail}</span>
        </div>
      ) : payment.closed ? (
        <div className="pay-result pay-result--closed" role="status">
          <ExclamationCircleFilled />
          <strong>{paymentTexts[payment.closed]}</strong>
        </div>
      ) : (
        <>
          <fieldset className="pay-methods">
            <legend className="pay-methods__legend">{paymentTexts.method}</legend>
            {methods.map((method) => (
              <label
                key={method}
                className={`pay-method pay-method--${method}${payment.method === method ? ' is-active' : ''}`}
              >
                <input
                  type="radio"
                  name={`pay-method-${orderId}`}
                  value={method}
                  checked={payment.method === method}
                  onChange={() => payment.selectMethod(method)}
                />
                {METHOD_ICONS[method]}
                <span>{paymentTexts.methods[method]}</span>
              </label>
            ))}
          </fieldset>
          {payment.method === 'offline' ? (
            <OfflinePanel
              orderId={orderId}
              orderNo={orderNo}
              amount={amount}
              pending={payment.offlinePending}
              onUploaded={payment.refreshStatus}
            />
          ) : (
            <QrSection payment={payment} payType={payment.method} />
          )}
        </>
      )}
    </div>
  );
}

function QrSection<S extends PayStatus>({
  payment,
  payType,
}: {
  payment: PaymentState<S>;
  payType: PayType;
}) {
  const { qr, qrError, qrLoading, remainingMs } = payment;
  const current = qr?.payType === payType ? qr : null;
  return (
    <div className={`pay-qr pay-qr--${payType}`}>
      <div className="pay-qr__frame">
        {current ? (
          <QrImage value={current.codeUrl} alt={paymentTexts.qrAlt[payType]} />
        ) : qrError ? (
          <div className="pay-qr__placeholder pay-qr__placeholder--error" role="alert">
            <span>{qrError.message}</span>
            {qrError.retryable && (
              <Button size="small" onClick={payment.retryQr}>
                {paymentTexts.retry}
              </Button>
            )}
          </div>
        ) : (
          <div className="pay-qr__placeholder" aria-busy={qrLoading}>
            <LoadingOutlined />
            <span>{paymentTexts.qrLoading}</span>
          </div>
        )}
      </div>
      <div className="pay-qr__side">
        <p className="pay-qr__hint">
          {METHOD_ICONS[payType]} {paymentTexts.scanHint[payType]}
        </p>
        {remainingMs !== null && (
          <p className="pay-qr__countdown">
            <ClockCircleOutlined /> {paymentTexts.remaining}{' '}
            <strong data-testid="pay-countdown">{formatRemaining(remainingMs)}</strong>
          </p>
        )}
        {current && (
          <p className="pay-qr__waiting" role="status">
            <LoadingOutlined /> {paymentTexts.waiting}
          </p>
        )}
        {current && isSandboxCode(current.codeUrl) && (
          <p className="pay-qr__sandbox">
            <Tag color="orange">{paymentTexts.sandboxTag}</Tag>
            <a href={current.codeUrl} target="_blank" rel="noopener noreferrer">
              {paymentTexts.sandboxLink} <ExportOutlined />
            </a>
            <span className="pay-qr__sandbox-hint">{paymentTexts.sandboxHint}</span>
          </p>
        )}
      </div>
    </div>
  );
}
