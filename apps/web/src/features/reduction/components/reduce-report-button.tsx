import { Button, Popconfirm } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { toast } from '../../../stores/ui-store';
import { useReduceReport } from '../api/reduction';
import { reductionTexts as T } from '../texts';

/** The page of one reduction, its payment dialog open. */
export function reductionPayPath(reductionId: string): string {
  return `${paths.reduction}?${new URLSearchParams({ id: reductionId, pay: '1' }).toString()}`;
}

/**
 * 降重 of a finished check report: after a confirmation, /order/trans turns the report's flagged
 * paragraphs into a 降重 order (the server refuses another user's report, an unfinished one or one
 * without flagged passages, in Chinese), and the 降重 page opens with its payment.
 */
export function ReduceReportButton({
  orderId,
  size = 'middle',
}: {
  orderId: string;
  size?: 'small' | 'middle';
}) {
  const navigate = useNavigate();
  const reduce = useReduceReport();
  return (
    <Popconfirm
      title={T.fromReport.confirmTitle}
      description={T.fromReport.confirmText}
      okText={T.fromReport.ok}
      cancelText={T.fromReport.cancel}
      styles={{ root: { maxWidth: 360 } }}
      onConfirm={() =>
        reduce.mutate(
          { orderId, kind: 'reduction' },
          {
            onSuccess: (s) => {
              toast.success(T.fromReport.created(s.paragraphs, s.amount));
              navigate(reductionPayPath(s.reductionId));
            },
          },
        )
      }
    >
      <Button size={size} loading={reduce.isPending} data-testid="reduce-report">
        {T.fromReport.button}
      </Button>
    </Popconfirm>
  );
}
