import { DownOutlined } from '@ant-design/icons';
import { formatPaginationTotal } from '@kyfw/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { MenuProps } from 'antd';
import { Alert, Button, Dropdown, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { toast } from '../../../stores/ui-store';
import { useSession } from '../../auth/stores/session-store';
import { OrderDetailDrawer } from '../../orders/components/order-detail-drawer';
import type { Order } from '../../orders/types';
import { PaymentDialog } from '../../payment';
import { deleteCheck } from '../api/delete-check';
import { CHECK_PAY_ENDPOINTS } from '../api/get-check-status';
import { useCheckGoods } from '../api/get-goods-list';
import { useCheckList } from '../api/list-checks';
import { retryCheck } from '../api/retry-check';
import { startFreeCheck } from '../api/start-free-check';
import { deleteBlockedReason, deleteConfirmText } from '../lib/delete-confirm';
import { formatChars, formatPercent, formatTime, formatYuan, rateLevel } from '../lib/format';
import { checkPagePath, checkReportPath } from '../lib/links';
import { checkTexts as t } from '../texts';
import type { CheckListItem, ReportFormat } from '../types';
import { downloadAndSave } from './report/download-buttons';
import '../check.css';

const PAGE_SIZE = 10;

const STATUS_COLORS: Record<CheckListItem['checkStatus'], string> = {
  pending: 'orange',
  queued: 'processing',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

function StatusCell({ item }: { item: CheckListItem }) {
  const running = item.checkStatus === 'queued' || item.checkStatus === 'running';
  const closed = item.checkStatus === 'pending' && !item.free && !item.actions.pay && !item.offlinePending;
  const tag = (
    <Tag color={closed ? 'default' : STATUS_COLORS[item.checkStatus]} className="ck-status">
      {item.checkStatusText}
      {running && item.checkStatus === 'running' ? ` ${item.progress}%` : ''}
    </Tag>
  );
  if (item.checkStatus === 'failed' && item.failureReason) {
    return <Tooltip title={item.failureReason}>{tag}</Tooltip>;
  }
  if (item.offlinePending && item.offlinePendingText) {
    return (
      <Tooltip title={item.offlinePendingText}>
        <span className="ck-status-wrap">
          {tag}
          <span className="ck-status__next">{t.offlinePendingShort}</span>
        </span>
      </Tooltip>
    );
  }
  return tag;
}

/**
 * 查重订单 (/user/order/check): every check of the user — free checks have no order, so the list
 * comes from /freeCheck/orderList, not /order/list — with status, rate and the actions 查看报告,
 * 下载, 去支付, 开始检测, 重新检测, 删除; paid ones open the order's details (payments, invoice,
 * courier delivery) in the orders drawer.
 */
export function CheckOrderList() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [paying, setPaying] = useState<CheckListItem | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const list = useCheckList(page, PAGE_SIZE);
  const userId = useSession((s) => (s.userInfo?.id == null ? null : String(s.userInfo.id)));
  const goods = useCheckGoods(userId);
  const goodsNames = useMemo(() => new Map((goods.data ?? []).map((g) => [g.goodsId, g.name])), [goods.data]);
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['check', 'list'] });

  // biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt with the rows and the busy row
  const columns = useMemo<ColumnsType<CheckListItem>>(() => {
    const remove = async (item: CheckListItem) => {
      const [error] = await deleteCheck(item.orderId);
      if (error) return;
      toast.success(t.deleted);
      if (rows.length === 1 && page > 1) setPage(page - 1);
      refresh();
    };
    const startFree = async (item: CheckListItem) => {
      setBusyId(item.orderId);
      const [error] = await startFreeCheck(item.orderId);
      setBusyId(null);
      if (!error) navigate(checkPagePath(item.orderId));
    };
    const retry = async (item: CheckListItem) => {
      setBusyId(item.orderId);
      const [error] = await retryCheck(item.orderId);
      setBusyId(null);
      if (!error) refresh();
    };
    const download = async (item: CheckListItem, format: ReportFormat) => {
      setBusyId(item.orderId);
      try {
        if (await downloadAndSave(item.orderId, format, item.title)) toast.success(t.downloaded);
      } finally {
        setBusyId(null);
      }
    };
    return [
      {
        key: 'orderNo',
        title: t.colOrderNo,
        width: 190,
        render: (_, item) => (
          <div className="ck-list__order">
            {item.free ? (
              <span className="ck-mono">{item.orderNo}</span>
            ) : (
              <Button
                type="link"
                className="ck-list__no"
                onClick={() => setDetailId(item.orderId)}
                title={t.orderDetail}
              >
                {item.orderNo}
              </Button>
            )}
            <span className="ck-list__time">{formatTime(item.createdAt)}</span>
          </div>
        ),
      },
      {
        key: 'paper',
        title: t.colPaper,
        render: (_, item) => (
          <div className="ck-list__paper">
            <span className="ck-list__title">《{item.title}》</span>
            <span className="ck-list__meta muted">
              {[item.goodsName ?? goodsNames.get(item.goodsId), t.chars(formatChars(item.chars))]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </div>
        ),
      },
      {
        key: 'amount',
        title: t.colAmount,
        width: 76,
        align: 'right',
        render: (_, item) => (item.free ? <Tag color="green">{t.freeAmount}</Tag> : formatYuan(item.amount)),
      },
      {
        key: 'status',
        title: t.colStatus,
        width: 100,
        render: (_, item) => <StatusCell item={item} />,
      },
      {
        key: 'ratio',
        title: t.colRatio,
        width: 108,
        align: 'right',
        render: (_, item) =>
          item.ratio === null ? (
            '—'
          ) : (
            <strong className={`ck-rate ck-rate--${rateLevel(item.ratio)}`}>
              {formatPercent(item.ratio)}
            </strong>
          ),
      },
      {
        key: 'actions',
        title: t.colActions,
        width: 210,
        render: (_, item) => {
          const busy = busyId === item.orderId;
          const deleteBlocked = deleteBlockedReason(item);
          const menu: MenuProps = {
            items: (['pdf', 'marked', 'html', 'zip'] as const).map((format) => ({
              key: format,
              label: t.formats[format],
            })),
            onClick: ({ key }) => void download(item, key as ReportFormat),
          };
          return (
            <Space size={4} wrap className="ck-list__actions">
              {item.actions.view && (
                <Button type="primary" size="small" onClick={() => navigate(checkReportPath(item.orderId))}>
                  {t.viewReport}
                </Button>
              )}
              {item.actions.download && (
                <Dropdown menu={menu} trigger={['click']} disabled={busy}>
                  <Button size="small" loading={busy}>
                    {t.download} <DownOutlined />
                  </Button>
                </Dropdown>
              )}
              {item.actions.pay && (
                <Button type="primary" size="small" onClick={() => setPaying(item)}>
                  {t.pay}
                </Button>
              )}
              {item.actions.start && (
                <Button type="primary" size="small" loading={busy} onClick={() => startFree(item)}>
                  {t.startFree}
                </Button>
              )}
              {(item.checkStatus === 'queued' || item.checkStatus === 'running') && (
                <Link to={checkPagePath(item.orderId)}>{t.viewProgress}</Link>
              )}
              {item.actions.retry && (
                <Button size="small" loading={busy} onClick={() => retry(item)}>
                  {t.retryCheck}
                </Button>
              )}
              {item.actions.delete && (
                <Popconfirm
                  title={t.deleteTitle}
                  description={deleteConfirmText(item)}
                  okText={t.confirmOk}
                  cancelText={t.confirmCancel}
                  okButtonProps={{ danger: true }}
                  styles={{ root: { maxWidth: 360 } }}
                  onConfirm={() => remove(item)}
                >
                  <Button type="link" size="small" danger>
                    {t.delete}
                  </Button>
                </Popconfirm>
              )}
              {deleteBlocked && (
                <Tooltip title={deleteBlocked}>
                  <span className="ck-list__blocked" data-testid="delete-blocked">
                    <Button type="link" size="small" disabled aria-label={`${t.delete}：${deleteBlocked}`}>
                      {t.delete}
                    </Button>
                  </span>
                </Tooltip>
              )}
            </Space>
          );
        },
      },
    ];
  }, [rows, page, busyId, goodsNames]);

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
        pagination={
          total > 0
            ? {
                current: page,
                pageSize: PAGE_SIZE,
                total,
                onChange: setPage,
                showSizeChanger: false,
                showTotal: (value: number) => formatPaginationTotal(value),
              }
            : false
        }
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
        onPay={(order: Order) => {
          const row = rows.find((r) => r.orderId === order.orderId);
          if (row) setPaying(row);
        }}
        onChanged={refresh}
        contextOf={(order: Order) => ({
          extra: undefined,
          refresh,
          pay: () => {
            const row = rows.find((r) => r.orderId === order.orderId);
            if (row) setPaying(row);
          },
          openDetail: (o: Order) => setDetailId(o.orderId),
        })}
      />
    </div>
  );
}
