import { OrderTabPage } from '../../../../features/orders';
import { ReductionList } from '../../../../features/reduction';

/** 降重订单 (降重 and 降AIGC): the reductions with status, result and download, then their orders. */
export default function ReductionOrdersPage() {
  return (
    <>
      <ReductionList />
      <OrderTabPage tab="reduction" />
    </>
  );
}
