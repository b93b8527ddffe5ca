import type { Commission } from '@kyfw/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { PaymentDialog } from '../../payment';
import { commissionTexts as T } from '../texts';

/** The shared payment dialog for a commission's order (/order/pay, /order/payStatus); paid: every view reloads. */
export function CommissionPayDialog({
  commission: c,
  open,
  onClose,
}: {
  commission: Commission;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
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
      // The commission (处理中 now), the lists and the orders below all change.
      onPaid={() => void queryClient.invalidateQueries()}
    />
  );
}
