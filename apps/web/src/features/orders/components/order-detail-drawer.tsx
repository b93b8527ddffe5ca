import { formatYuan } from '@kyfw/contracts';
import { Alert, Button, Descriptions, Drawer, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useOrderDetail } from '../api/get-order-detail';
import type { OrderRowContext, OrderTabExtension } from '../extension';
import { defaultDeliverable } from '../extension';
import { formatDateTime } from '../lib/format';
import { orderTexts } from '../texts';
import type { Order, OrderDetail } from '../types';
import { CancelOrderButton } from './cancel-order-button';
import { DeliveryAddressModal } from './delivery-address-modal';
import { OrderRecords, Section } from './order-records';
import { OrderStatusTag } from './order-status-tag';

const f = orderTexts.fields;

export interface OrderDetailDrawerProps<TExtra> {
  orderId: string | null;
  onClose: () => void;
  onPay: (order: Order) => void;
  /** Something changed (delivery): refresh the list. */
  onChanged: () => void;
  extension?: OrderTabExtension<TExtra>;
  contextOf: (order: Order) => OrderRowContext<TExtra>;
}

/** The order's details: fields, the service's section, courier delivery, history, money records. */
export function OrderDetailDrawer<TExtra>({
  orderId,
  onClose,
  onPay,
  onChanged,
  extension,
  contextOf,
}: OrderDetailDrawerProps<TExtra>) {
  const detail = useOrderDetail(orderId);
  const order = detail.data;
  return (
    <Drawer
      open={orderId !== null}
      onClose={onClose}
      title={orderTexts.detailTitle}
      size={560}
      className="order-drawer"
      destroyOnHidden
      extra={
        order && (order.canPay || order.canCancel) ? (
          <Space size={8}>
            {order.canCancel && (
              <CancelOrderButton orderId={order.orderId} onCancelled={onChanged}>
                {orderTexts.cancelOrder}
              </CancelOrderButton>
            )}
            {order.canPay && (
              <Button
                type="primary"
                onClick={() => {
                  onPay(order);
                  onClose();
                }}
              >
                {orderTexts.pay}
              </Button>
            )}
          </Space>
        ) : null
      }
    >
      {detail.isPending ? (
        <div className="order-drawer__loading">
          <Spin />
        </div>
      ) : detail.isError || !order ? (
        <Alert type="error" showIcon title={detail.error?.message ?? orderTexts.loadFailed} />
      ) : (
        <DetailBody order={order} extension={extension} context={contextOf(order)} onChanged={onChanged} />
      )}
    </Drawer>
  );
}

function DetailBody<TExtra>({
  order,
  extension,
  context,
  onChanged,
}: {
  order: OrderDetail;
  extension?: OrderTabExtension<TExtra>;
  context: OrderRowContext<TExtra>;
  onChanged: () => void;
}) {
  const [choosing, setChoosing] = useState(false);
  const deliverable = (extension?.deliverable ?? defaultDeliverable)(order);
  const shipped = Boolean(order.delivery?.trackingNo);

  const fields = [
    { key: 'orderNo', label: f.orderNo, children: <span className="mono">{order.orderNo}</span> },
    { key: 'service', label: f.service, children: order.serviceTypeText },
    { key: 'goods', label: f.goods, children: order.goodsName },
    ...(typeof order.meta?.title === 'string' && order.meta.title
      ? [{ key: 'title', label: f.title, children: `《${order.meta.title}》` }]
      : []),
    {
      key: 'quantity',
      label: f.quantity,
      children: orderTexts.quantity(order.quantity, order.unit, order.unitSize),
    },
    {
      key: 'unitPrice',
      label: f.unitPrice,
      children: orderTexts.unitPrice(formatYuan(order.unitPrice), order.unit),
    },
    ...(order.parts && order.parts.length > 1
      ? [
          {
            key: 'parts',
            label: f.parts,
            children: order.parts.map((part) => `${part.goodsName} ${formatYuan(part.amount)}`).join('；'),
          },
        ]
      : []),
    { key: 'amount', label: f.amount, children: <strong>{formatYuan(order.amount)}</strong> },
    ...(order.refundedFen > 0
      ? [{ key: 'refunded', label: f.refunded, children: formatYuan(order.refundedAmount) }]
      : []),
    { key: 'status', label: f.status, children: <OrderStatusTag order={order} /> },
    { key: 'payChannel', label: f.payChannel, children: order.payChannelText ?? '—' },
    { key: 'createdAt', label: f.createdAt, children: formatDateTime(order.createdAt) },
    { key: 'paidAt', label: f.paidAt, children: formatDateTime(order.paidAt) },
    ...(order.status === 'pending_payment'
      ? [{ key: 'expireAt', label: f.expireAt, children: formatDateTime(order.expireAt) }]
      : []),
  ];

  return (
    <div className="order-drawer__body">
      <Descriptions column={1} size="small" bordered items={fields} />

      {extension?.detail && <div className="order-drawer__extension">{extension.detail(order, context)}</div>}

      {(deliverable || order.delivery) && (
        <Section
          title={orderTexts.delivery}
          extra={
            deliverable && !shipped ? (
              <Button size="small" onClick={() => setChoosing(true)}>
                {order.delivery ? orderTexts.deliveryChange : orderTexts.deliveryChoose}
              </Button>
            ) : null
          }
        >
          {order.delivery ? (
            <div className="order-delivery" data-testid="order-delivery">
              <p>
                <strong>{order.delivery.recipientName}</strong> {order.delivery.phone}
                <Tag color={shipped ? 'green' : 'gold'} className="order-delivery__status">
                  {order.delivery.statusText}
                </Tag>
              </p>
              <p className="muted">
                {order.delivery.province}
                {order.delivery.city === order.delivery.province ? '' : order.delivery.city}
                {order.delivery.district} {order.delivery.detail}
              </p>
              {order.delivery.trackingNo && (
                <p className="order-delivery__tracking">
                  <span>
                    {orderTexts.deliveryCarrier}：{order.delivery.carrier ?? '—'}
                  </span>
                  <span>
                    {orderTexts.deliveryTracking}：
                    <Typography.Text copyable className="mono">
                      {order.delivery.trackingNo}
                    </Typography.Text>
                  </span>
                  {order.delivery.shippedAt && (
                    <span className="muted">
                      {orderTexts.deliveryShippedAt}：{formatDateTime(order.delivery.shippedAt)}
                    </span>
                  )}
                </p>
              )}
            </div>
          ) : (
            <p className="muted">{orderTexts.deliveryNone}</p>
          )}
        </Section>
      )}

      <OrderRecords order={order} />

      <DeliveryAddressModal
        open={choosing}
        orderId={order.orderId}
        onClose={() => setChoosing(false)}
        onSaved={() => {
          setChoosing(false);
          onChanged();
        }}
      />
    </div>
  );
}
