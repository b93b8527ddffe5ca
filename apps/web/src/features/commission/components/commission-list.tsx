import { type Commission, formatDate, formatYuan } from '@kyfw/contracts';
import { Button, Drawer, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useCancelCommission } from '../api/cancel-commission';
import { useCommission } from '../api/get-commission';
import { useCommissions } from '../api/list-commissions';
import { commissionTexts as T } from '../texts';
import { CommissionPayDialog } from './commission-pay-dialog';
import { CommissionProgress } from './commission-progress';
import '../commission.css';

const STATUS_COLORS: Record<Commission['status'], string> = {
  quoting: 'gold',
  pending_payment: 'orange',
  processing: 'blue',
  done: 'green',
  cancelled: 'default',
  refunded: 'purple',
};

/**
 * 我的委托 (/user/order/commission): every commission with its status, also those still waiting
 * for a quote (no order yet); the drawer shows the progress, 去支付, 取消委托 and the reports.
 */
export function CommissionList() {
  const [page, setPage] = useState(1);
  const list = useCommissions(page, 10);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <section className="commission-list" aria-label={T.orders.detailTitle}>
      <Table<Commission>
        rowKey="commissionId"
        size="middle"
        // Scrolls inside its card on a phone instead of widening the page (issue 23: 390 px).
        scroll={{ x: 760 }}
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: T.orders.empty }}
        pagination={{
          current: page,
          pageSize: 10,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (total) => `共 ${total} 条`,
          hideOnSinglePage: true,
        }}
        columns={[
          { key: 'no', title: T.commissionNo, dataIndex: 'commissionNo', width: 200 },
          {
            key: 'title',
            title: T.orders.service,
            render: (_v, c) => (
              <div>
                <div>{c.serviceName}</div>
                <div className="muted commission-list__title">{c.title}</div>
              </div>
            ),
          },
          {
            key: 'amount',
            title: T.amount,
            width: 110,
            render: (_v, c) => (c.amount ? formatYuan(c.amount) : T.estimate.quote),
          },
          {
            key: 'status',
            title: T.status,
            width: 100,
            render: (_v, c) => <Tag color={STATUS_COLORS[c.status]}>{c.statusText}</Tag>,
          },
          {
            key: 'at',
            title: T.orders.submittedAt,
            width: 150,
            render: (_v, c) => formatDate(c.createdAt, 'YYYY-MM-DD HH:mm'),
          },
          {
            key: 'actions',
            title: T.orders.actions,
            width: 90,
            render: (_v, c) => (
              <Button type="link" onClick={() => setOpenId(c.commissionId)}>
                {T.orders.detail}
              </Button>
            ),
          },
        ]}
      />
      <CommissionDrawer commissionId={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}

function CommissionDrawer({ commissionId, onClose }: { commissionId: string | null; onClose: () => void }) {
  const detail = useCommission(commissionId);
  const cancel = useCancelCommission();
  const [payOpen, setPayOpen] = useState(false);
  const c = detail.data;
  return (
    <Drawer
      open={commissionId !== null}
      onClose={onClose}
      title={c?.serviceName ?? T.orders.detailTitle}
      size={600}
      destroyOnHidden
    >
      {c && (
        <div className="commission-detail">
          <p className="commission-detail__title">{c.title}</p>
          <p className="muted">
            {T.commissionNo} {c.commissionNo}
            {c.orderNo ? ` · ${T.orderNo} ${c.orderNo}` : ''}
            {c.deadline ? ` · ${T.deadline} ${c.deadline}` : ''}
          </p>
          <p>
            {c.delivery === 'print' ? T.delivery.print(c.copies) : T.delivery.pdf}
            {c.delivery === 'print' && <span className="muted"> {T.delivery.printHint}</span>}
          </p>
          <Space wrap className="commission-detail__actions">
            {c.canPay && (
              <Button type="primary" onClick={() => setPayOpen(true)}>
                {T.pay} {formatYuan(c.amount)}
              </Button>
            )}
            {c.canCancel && (
              <Popconfirm title={T.cancelConfirm} onConfirm={() => cancel.mutateAsync(c.commissionId)}>
                <Button loading={cancel.isPending}>{T.cancel}</Button>
              </Popconfirm>
            )}
          </Space>
          <CommissionProgress commission={c} />
          <CommissionPayDialog commission={c} open={payOpen} onClose={() => setPayOpen(false)} />
        </div>
      )}
    </Drawer>
  );
}
