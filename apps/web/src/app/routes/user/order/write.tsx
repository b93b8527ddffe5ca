import { OrderTabPage } from '../../../../features/orders';
import { WritingList } from '../../../../features/writing';

/** 写作订单 (AI 写作): the writings with status, progress and download, then their orders. */
export default function WriteOrdersPage() {
  return (
    <>
      <WritingList />
      <OrderTabPage tab="write" />
    </>
  );
}
