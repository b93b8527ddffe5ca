import { formatYuan } from '@kyfw/contracts';

/** An amount in a table, with what was refunded of it below (in the list's own words). */
export function AmountCell({
  amount,
  refundedFen,
  refundedAmount,
  refundedText,
}: {
  amount: string;
  refundedFen: number;
  refundedAmount: string;
  refundedText: (amount: string) => string;
}) {
  return (
    <div className="order-amount">
      <strong>{formatYuan(amount)}</strong>
      {refundedFen > 0 && (
        <span className="order-amount__refund">{refundedText(formatYuan(refundedAmount))}</span>
      )}
    </div>
  );
}
