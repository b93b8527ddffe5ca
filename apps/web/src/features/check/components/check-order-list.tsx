import { Alert, Button, Table } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSession } from '../../auth';
import type { Order } from '../../orders';
import { OrderDetailDrawer } from '../../orders';
import { PaymentDialog } from '../../payment';
import { CHECK_PAY_ENDPOINTS } from '../api/get-check-status';
import { useCheckGoods } from '../api/get-goods-list';
import { useCheckList, useRefreshCheckList } from '../api/list-checks';
import { checkTexts as t } from '../texts';
import type { CheckListItem } from '../types';
import { checkOrderColumns } from './check-order-columns';
import { CheckRowActions } from './check-row-actions';
import '../check.css';
import { tablePagination } from '../../../lib/pagination';

const PAGE_SIZE = 10;

/**
 * 查重订单 (/user/order/check): every check of the user — free checks have no order, so the list
 * comes from /freeCheck/orderList, not /order/list — with status, rate and the actions 查看报告,
 * 下载, 去支付, 开始检测, 重新检测, 删除 (check-row-actions.tsx); paid ones open the order's details
 * (payments, invoice, courier delivery) in the orders drawer.
 */
export function CheckOrderList() {
  const [page, setPage] = useState(1);
  const [paying, setPaying] = useState<CheckListItem | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);
  const list = useCheckList(page, PAGE_SIZE);
  const refresh = useRefreshCheckList();
  const userId = useSession((s) => (s.userInfo?.id == null ? null : String(s.userInfo.id)));
  const goods = useCheckGoods(userId);
  const goodsNames = useMemo(() => new Map((goods.data ?? []).map((g) => [g.goodsId, g.name])), [goods.data]);
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  const columns = useMemo(
    () =>
      checkOrderColumns({
        goodsName: (goodsId) => goodsNames.get(goodsId),
        onOpenDetail: (item) => setDetailId(item.orderId),
        actions: (item) => (
          <CheckRowActions
            item={item}
            onPay={setPaying}
            // The last row of a later page is gone: show the page before.
            onDeleted={() => setPage((current) => (rows.length === 1 && current > 1 ? current - 1 : current))}
          />
        ),
      }),
    [goodsNames, rows.length],
  );
  const payRow = (order: Order) => {
    const row = rows.find((r) => r.orderId === order.orderId);
    if (row) setPaying(row);
  };

  if (list.isError && !list.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t.loadFailed}
        description={list.error.message}
        action={<Button onClick={() => list.refetch()}>{t.retry}</Button>}
      />
    );
  }

  return (
    <div className="ck-list" data-testid="check-orders">
      <Table<CheckListItem>
        rowKey="orderId"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isPending}
        locale={{
          emptyText: (
            <div className="ck-list__empty">
              <p>{t.listEmpty}</p>
              <Link to={paths.check}>{t.listGoCheck}</Link>
            </div>
          ),
        }}
        pagination={total > 0 ? tablePagination(total, page, setPage, PAGE_SIZE) : false}
        scroll={{ x: 860 }}
      />
      <PaymentDialog
        {...CHECK_PAY_ENDPOINTS}
        open={paying !== null}
        orderId={paying?.orderId}
        title={t.payTitle}
        goodsName={
          paying
            ? `${paying.goodsName ?? goodsNames.get(paying.goodsId) ?? ''}《${paying.title}》`
            : undefined
        }
        amount={paying?.amount}
        orderNo={paying?.orderNo}
        onClose={() => {
          setPaying(null);
          refresh();
        }}
        onPaid={refresh}
      />
      <OrderDetailDrawer
        orderId={detailId}
        onClose={() => setDetailId(null)}
        onPay={payRow}
        onChanged={refresh}
        contextOf={() => ({
          extra: undefined,
          refresh,
          pay: payRow,
          openDetail: (o: Order) => setDetailId(o.orderId),
        })}
      />
    </div>
  );
}
