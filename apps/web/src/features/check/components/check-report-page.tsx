import { ArrowLeftOutlined } from '@ant-design/icons';
import { ErrorCode } from '@kyfw/contracts';
import { Button, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import type { RequestError } from '../../../lib/request';
import { useReport } from '../api/get-report';
import { checkPagePath } from '../lib/links';
import { checkTexts as t } from '../texts';
import { ReportView } from './report/report-view';
import '../check.css';

/** The report of one check on its own page; a check that is not finished links to its progress. */
export function CheckReportPage({ orderId }: { orderId: string }) {
  const report = useReport(orderId);
  const navigate = useNavigate();
  let body: ReactNode;
  if (report.data) {
    body = <ReportView report={report.data} />;
  } else if (report.isError) {
    const code = (report.error as RequestError | null)?.code;
    body = (
      <Result
        status={code === ErrorCode.CHECK_NOT_READY ? 'info' : 'warning'}
        title={report.error.message || t.reportFailed}
        extra={[
          code === ErrorCode.CHECK_NOT_READY ? (
            <Button key="progress" type="primary" onClick={() => navigate(checkPagePath(orderId))}>
              {t.viewProgress}
            </Button>
          ) : (
            <Button key="retry" onClick={() => report.refetch()}>
              {t.retry}
            </Button>
          ),
          <Button key="list" onClick={() => navigate(paths['user-order-check'])}>
            {t.myChecks}
          </Button>,
        ]}
      />
    );
  } else {
    body = (
      <div className="ck-center ck-center--tall">
        <Spin />
        <span className="muted">{t.reportLoading}</span>
      </div>
    );
  }
  return (
    <div className="container ck-report-page">
      <nav className="ck-report-page__nav">
        <Link to={paths['user-order-check']}>
          <ArrowLeftOutlined /> {t.myChecks}
        </Link>
        <Link to={paths.check}>{t.backToCheck}</Link>
      </nav>
      <div className="card-surface ck-report-page__card">{body}</div>
    </div>
  );
}
