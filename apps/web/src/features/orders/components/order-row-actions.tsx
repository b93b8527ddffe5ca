import { Button, Popconfirm, Space } from 'antd';
import { toast } from '../../../stores/ui-store';
import { useDeleteOrder } from '../api/delete-order';
import type { OrderRowContext, OrderTabExtension } from '../extension';
import { orderTexts } from '../texts';
import type { Order } from '../types';
import { CancelOrderButton } from './cancel-order-button';

/**
 * The actions of one order row: the service's own, 去支付, 详情, 取消 (after confirmation) and
 * 删除 (confirmation saying what it means for the status; the service may replace the delete).
 */
export function OrderRowActions<TExtra>({
  order,
  context,
  extension,
  onPay,
  onDetail,
  onDeleted,
}: {
  order: Order;
  context: OrderRowContext<TExtra>;
  extension?: OrderTabExtension<TExtra>;
  onPay: (order: Order) => void;
  onDetail: (order: Order) => void;
  /** After the delete: the list moves back a page when this was the last row, the drawer closes. */
  onDeleted: (order: Order) => void;
}) {
  const remove = useDeleteOrder();
  const deleted = () => {
    toast.success(orderTexts.deleted);
    onDeleted(order);
  };
  const confirmDelete = async () => {
    if (extension?.deleteOrder) {
      if (await extension.deleteOrder(order)) deleted();
      return;
    }
    remove.mutate(order.orderId, { onSuccess: deleted });
  };
  return (
    <Space size={4} wrap className="order-actions">
      {extension?.actions?.(order, context)}
      {order.canPay && (
        <Button type="primary" size="small" onClick={() => onPay(order)}>
          {orderTexts.pay}
        </Button>
      )}
      <Button type="link" size="small" onClick={() => onDetail(order)}>
        {orderTexts.detail}
      </Button>
      {order.canCancel && (
        <CancelOrderButton orderId={order.orderId} type="link" size="small">
          {orderTexts.cancel}
        </CancelOrderButton>
      )}
      {order.canDelete && (
        <Popconfirm
          title={orderTexts.deleteTitle}
          description={orderTexts.deleteConfirm[order.status] ?? orderTexts.deleteConfirmOther}
          okText={orderTexts.confirmOk}
          cancelText={orderTexts.confirmCancel}
          okButtonProps={{ danger: true }}
          styles={{ root: { maxWidth: 360 } }}
          onConfirm={confirmDelete}
        >
          <Button type="link" size="small" danger loading={remove.isPending}>
            {orderTexts.delete}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
