import { DownOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { Button, Dropdown, Popconfirm, Space, Tooltip } from 'antd';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../stores/ui-store';
import { ReduceReportButton } from '../../reduction';
import { useDeleteCheck } from '../api/delete-check';
import { useDownloadReport } from '../api/download-report';
import { useRetryCheck } from '../api/retry-check';
import { useStartFreeCheck } from '../api/start-free-check';
import { deleteBlockedReason, deleteConfirmText } from '../lib/delete-confirm';
import { checkPagePath, checkReportPath } from '../lib/links';
import { checkTexts as t } from '../texts';
import type { CheckListItem, ReportFormat } from '../types';

const FORMATS: ReportFormat[] = ['pdf', 'marked', 'html', 'zip'];

/**
 * The actions of one row of 查重订单: 查看报告, 下载 (four formats), 去支付, 开始检测, 查看进度,
 * 重新检测, 删除 (or why it cannot be deleted) — as the row's `actions` allow. Each row owns its
 * writes, so a row is busy while its own start, retry or download runs.
 */
export function CheckRowActions({
  item,
  onPay,
  onDeleted,
}: {
  item: CheckListItem;
  onPay: (item: CheckListItem) => void;
  onDeleted: () => void;
}) {
  const navigate = useNavigate();
  const startFree = useStartFreeCheck();
  const retry = useRetryCheck();
  const download = useDownloadReport();
  const remove = useDeleteCheck();
  const busy = startFree.isPending || retry.isPending || download.isPending;
  const deleteBlocked = deleteBlockedReason(item);
  const menu: MenuProps = {
    // An AIGC report has one file, its PDF.
    items: (item.kind === 'aigc' ? FORMATS.slice(0, 1) : FORMATS).map((format) => ({
      key: format,
      label: t.formats[format],
    })),
    onClick: ({ key }) =>
      download.mutate(
        { orderId: item.orderId, format: key as ReportFormat, title: item.title },
        { onSuccess: () => toast.success(t.downloaded) },
      ),
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
      {item.actions.view && item.kind !== 'aigc' && (
        <ReduceReportButton orderId={item.orderId} size="small" />
      )}
      {item.actions.pay && (
        <Button type="primary" size="small" onClick={() => onPay(item)}>
          {t.pay}
        </Button>
      )}
      {item.actions.start && (
        <Button
          type="primary"
          size="small"
          loading={busy}
          onClick={() =>
            startFree.mutate(item.orderId, { onSuccess: () => navigate(checkPagePath(item.orderId)) })
          }
        >
          {t.startFree}
        </Button>
      )}
      {(item.checkStatus === 'queued' || item.checkStatus === 'running') && (
        <Link to={checkPagePath(item.orderId)}>{t.viewProgress}</Link>
      )}
      {item.actions.retry && (
        <Button size="small" loading={busy} onClick={() => retry.mutate(item.orderId)}>
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
          onConfirm={() =>
            remove.mutate(item.orderId, {
              onSuccess: () => {
                toast.success(t.deleted);
                onDeleted();
              },
            })
          }
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
}
