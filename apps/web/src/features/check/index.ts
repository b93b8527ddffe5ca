/** The paper-check feature's public API: the /check workspace, the report, verification, 查重订单. */
export { CheckOrderList } from './components/check-order-list';
export { CheckReportPage } from './components/check-report-page';
export { CheckWorkspace } from './components/check-workspace';
export { ReportView } from './components/report/report-view';
export { VerifyPanel } from './components/verify-panel';
export { checkPagePath, checkReportPath } from './lib/links';
export { checkTexts } from './texts';
export type * from './types';
