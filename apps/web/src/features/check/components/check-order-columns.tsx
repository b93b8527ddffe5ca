import { formatYuan, isAigcFigureShown } from '@kyfw/contracts';
import { Button, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { formatChars, formatPercent, formatTime, rateLevel } from '../lib/format';
import { checkTexts as t } from '../texts';
import type { CheckListItem } from '../types';

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

/** The columns of 查重订单: order no and time, paper, amount, status, rate, and the row's actions. */
export function checkOrderColumns({
  goodsName,
  onOpenDetail,
  actions,
}: {
  /** The product's name when the row does not carry it. */
  goodsName: (goodsId: string) => string | undefined;
  onOpenDetail: (item: CheckListItem) => void;
  actions: (item: CheckListItem) => ReactNode;
}): ColumnsType<CheckListItem> {
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
              onClick={() => onOpenDetail(item)}
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
            {[item.goodsName ?? goodsName(item.goodsId), t.chars(formatChars(item.chars))]
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
        ) : item.kind === 'aigc' ? (
          // An AIGC check: its index (参考值) when reliable or any paragraph is flagged, else no figure
          <span className="ck-aigc-cell" title={t.aigc.indexLabel}>
            {isAigcFigureShown({
              reliable: item.aigcReliable === true,
              flaggedChars: item.aigcFlaggedChars ?? 0,
            }) ? (
              <strong className="ck-rate ck-rate--high">{t.aigc.indexShort(item.ratio * 100)}</strong>
            ) : (
              t.aigc.noneShort
            )}
          </span>
        ) : (
          <>
            <strong className={`ck-rate ck-rate--${rateLevel(item.ratio)}`}>
              {formatPercent(item.ratio)}
            </strong>
            {item.aigcAddon && <AddonCell addon={item.aigcAddon} />}
          </>
        ),
    },
    {
      key: 'actions',
      title: t.colActions,
      width: 210,
      render: (_, item) => actions(item),
    },
  ];
}

/** The AIGC detection ordered with a check, under its rate: its index (参考值), or what became of it. */
function AddonCell({ addon }: { addon: NonNullable<CheckListItem['aigcAddon']> }) {
  const text =
    addon.status === 'done'
      ? isAigcFigureShown({ reliable: addon.reliable === true, flaggedChars: addon.flaggedChars ?? 0 })
        ? t.aigc.indexShort(addon.score ?? 0)
        : t.aigc.noneShort
      : addon.status === 'failed'
        ? addon.free
          ? t.addon.listFailedFree
          : t.addon.listFailed
        : t.addon.listPending;
  return (
    <span
      className="ck-aigc-cell ck-aigc-cell--addon"
      title={addon.failureReason ?? t.aigc.indexLabel}
      data-testid="list-aigc-addon"
    >
      {text}
    </span>
  );
}
