import { type CommissionEstimate, formatYuan } from '@kyfw/contracts';
import { commissionTexts as T } from '../texts';

/** The price before submitting, as /commission/estimate computes it from the goods. */
export function EstimateCard({
  estimate,
  loading,
}: {
  estimate: CommissionEstimate | undefined;
  loading: boolean;
}) {
  return (
    <aside className="commission-estimate card-surface" aria-label={T.estimate.title} aria-busy={loading}>
      <h3>{T.estimate.title}</h3>
      {!estimate ? (
        <p className="muted">{loading ? T.estimate.loading : T.estimate.incomplete}</p>
      ) : (
        <>
          <p className="commission-estimate__goods">{estimate.goodsName}</p>
          {estimate.amount !== null ? (
            <p className="commission-estimate__amount">{formatYuan(estimate.amount)}</p>
          ) : estimate.pricing === 'quote' ? (
            <p className="commission-estimate__amount">{T.estimate.quote}</p>
          ) : (
            <p className="muted">{T.estimate.incomplete}</p>
          )}
          <p className="muted">{estimate.explain}</p>
          {estimate.turnaroundDays !== null && estimate.dueDate !== null && (
            <p className="commission-estimate__due">
              {T.estimate.turnaround(estimate.turnaroundDays, estimate.dueDate)}
            </p>
          )}
          {estimate.amount !== null && <p className="muted">{T.estimate.note}</p>}
        </>
      )}
    </aside>
  );
}
