import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { toast } from '../../../stores/ui-store';
import { useCancelOrder } from '../api/cancel-order';
import { orderTexts } from '../texts';

/** 取消订单 after a confirmation; 订单已取消 and `onCancelled` once the server agreed. */
export function CancelOrderButton({
  orderId,
  children,
  size,
  type,
  onCancelled,
}: {
  orderId: string;
  children: ReactNode;
  size?: 'small' | 'middle';
  type?: 'link' | 'default';
  onCancelled?: () => void;
}) {
  const cancel = useCancelOrder();
  return (
    <Popconfirm
      title={orderTexts.cancelConfirm}
      okText={orderTexts.confirmOk}
      cancelText={orderTexts.confirmCancel}
      onConfirm={() =>
        cancel.mutate(orderId, {
          onSuccess: () => {
            toast.success(orderTexts.cancelled);
            onCancelled?.();
          },
        })
      }
    >
      <Button type={type} size={size} loading={cancel.isPending}>
        {children}
      </Button>
    </Popconfirm>
  );
}
