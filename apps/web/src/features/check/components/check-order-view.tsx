import { ErrorCode, formatYuan } from '@kyfw/contracts';
import { Alert, Button, Result, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { RequestError } from '../../../lib/request';
import { uiActions } from '../../../stores/ui-store';
import { PaymentDialog } from '../../payment';
import { CHECK_PAY_ENDPOINTS, useRefreshCheckStatus } from '../api/get-check-status';
import { useReport } from '../api/get-report';
import { useCheckListRow, useRefreshCheckList } from '../api/list-checks';
import { useRetryCheck } from '../api/retry-check';
import { useStartFreeCheck } from '../api/start-free-check';
import { isFinalStatusError, useCheckStatus } from '../hooks/use-check-status';
import { recallUpload, summaryFromListItem } from '../lib/upload-cache';
import { checkTexts as t } from '../texts';
import type { CheckGoods } from '../types';
import { CheckProgress } from './check-progress';
import { OrderConfirm } from './order-confirm';
import { ReportView } from './report/report-view';

/** The parsed paper of the order: from this tab's upload, else from the user's check list. */
function useOrderSummary(orderId: string, wanted: boolean) {
  const cached = useMemo(() => recallUpload(orderId), [orderId]);
  const row = useCheckListRow(orderId, wanted && !cached);
  return cached ?? (row.data ? summaryFromListItem(row.data) : null);
}

export interface CheckOrderViewProps {
  orderId: string;
  goods: CheckGoods[] | undefined;
  /** Back to a new upload. */
  onNew: () => void;
}

/**
 * One check on /check?orderId=…: the order before paying (or the free start), the progress while
 * it runs (polled every 3 s), the failure with its reason and a way forward, and the report when
 * it is done. Reloading or coming back later resumes from the server's state.
 */
export function CheckOrderView({ orderId, goods, onNew }: CheckOrderViewProps) {
  const status = useCheckStatus(orderId);
  const { view } = status;
  const data = status.data;
  const awaiting =
    view.phase === 'awaiting-payment' || view.phase === 'awaiting-free-start' || view.phase === 'closed';
  const summary = useOrderSummary(orderId, awaiting);
  const report = useReport(orderId, view.phase === 'done');
  const [paying, setPaying] = useState(false);
  const startFree = useStartFreeCheck();
  const retry = useRetryCheck();
  const refreshStatus = useRefreshCheckStatus();
  const refresh = () => void refreshStatus(orderId);
  const refreshLists = useRefreshCheckList();

  if (status.isError && !data) {
    const code = (status.error as RequestError | null)?.code;
    if (code === ErrorCode.UNAUTHORIZED) return <LoginPrompt />;
    if (isFinalStatusError(status.error)) {
      return (
        <Result
          status="warning"
          title={t.orderMissing}
          extra={
            <Button type="primary" onClick={onNew}>
              {t.newCheck}
            </Button>
          }
        />
      );
    }
    return (
      <div className="ck-center">
        <Spin />
        <span className="muted">{t.statusFailed}</span>
      </div>
    );
  }
  if (!data) {
    return (
      <div className="ck-center">
        <Spin />
      </div>
    );
  }

  const goodsOf = goods?.find((g) => g.goodsId === summary?.goodsId);
  const orderNo = data.orderNo ?? summary?.orderNo ?? null;

  return (
    <div className="ck-order-view" data-order-id={orderId}>
      {awaiting && (
        <OrderConfirm
          summary={summary}
          orderNo={orderNo}
          goods={goodsOf}
          view={view}
          starting={startFree.isPending}
          onPay={() => setPaying(true)}
          onStartFree={() => startFree.mutate(orderId)}
          onReupload={onNew}
        />
      )}

      {!awaiting && view.phase !== 'loading' && (
        <CheckProgress view={view} free={data.free} kind={data.kind} />
      )}

      {view.phase === 'failed' && (
        <Result
          status="error"
          title={t.failedTitle}
          subTitle={data.failureReason}
          className="ck-failed"
          extra={[
            data.canRetry && (
              <Button
                key="retry"
                type="primary"
                loading={retry.isPending}
                onClick={() => retry.mutate(orderId)}
              >
                {t.retryCheck}
              </Button>
            ),
            <Button key="new" onClick={onNew}>
              {t.newCheck}
            </Button>,
          ]}
        />
      )}

      {data.aigcAddon?.status === 'failed' && (
        // The AIGC detection ordered with the check failed for good: its part was given back.
        <Alert
          type="warning"
          showIcon
          className="ck-order__note"
          title={t.addon.sectionFailed}
          description={data.aigcAddon.failureReason}
          data-testid="aigc-addon-failed"
        />
      )}

      {view.phase === 'done' &&
        (report.data ? (
          <ReportView report={report.data} />
        ) : report.isError ? (
          <Alert
            type="error"
            showIcon
            title={t.reportFailed}
            description={report.error.message}
            action={<Button onClick={() => report.refetch()}>{t.retry}</Button>}
          />
        ) : (
          <div className="ck-center">
            <Spin />
            <span className="muted">{t.reportLoading}</span>
          </div>
        ))}

      {view.phase === 'done' && (
        <div className="ck-after">
          <Button onClick={onNew}>{t.newCheck}</Button>
          <Link to={paths['user-order-check']}>{t.myChecks}</Link>
        </div>
      )}

      <PaymentDialog
        {...CHECK_PAY_ENDPOINTS}
        open={paying}
        orderId={orderId}
        title={t.payTitle}
        goodsName={summary ? `${summary.goodsName ?? goodsOf?.name ?? ''}《${summary.title}》` : undefined}
        amount={summary?.amount}
        orderNo={orderNo}
        onClose={() => {
          setPaying(false);
          refresh();
        }}
        onPaid={() => {
          refresh();
          refreshLists();
        }}
      >
        {summary && (
          <p className="ck-pay-note muted">
            {t.charsLabel} {summary.chars.toLocaleString('zh-CN')} · {t.dueLabel} {formatYuan(summary.amount)}
          </p>
        )}
      </PaymentDialog>
    </div>
  );
}

/** Shown when the check's page is opened without a session. */
export function LoginPrompt() {
  return (
    <Result
      status="info"
      title={t.loginToView}
      extra={
        <Button type="primary" onClick={() => uiActions.openLoginModal()}>
          {t.login}
        </Button>
      }
    />
  );
}
