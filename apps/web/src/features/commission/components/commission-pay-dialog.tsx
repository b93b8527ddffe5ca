import type { Commission } from '@kyfw/contracts';
import { PaymentDialog } from '../../payment';
import { commissionTexts as T } from '../texts';

/** The shared payment dialog for a commission's order (/order/pay, /order/payStatus). */
export function CommissionPayDialog({
  commission: c,
  open,
  onClose,
  onPaid,
}: {
  commission: Commission;
  open: boolean;
  onClose: () => void;
  onPaid: () => void;
}) {
  return (
    <PaymentDialog
      open={open}
      orderId={c.orderId}
      title={T.payTitle}
      goodsName={`${c.serviceName} · ${c.title}`}
      amount={c.amount}
      orderNo={c.orderNo}
      qrPayCodeUrl="/order/pay"
      payStatusUrl="/order/payStatus"
      onClose={onClose}
      onPaid={onPaid}
    />
  );
}
