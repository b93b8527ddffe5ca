/** The commissioned services (检索报告, 科技查新, 文献下载, 成果评价): forms, 我的委托, the console queue. */

export { useIsServicePaused, useServiceStates } from './api/service-states';
export { CommissionFiles } from './components/commission-files';
export { PausedService } from './components/commission-form';
export { CommissionList } from './components/commission-list';
export { commissionOrderTab } from './components/commission-order-tab';
export { CommissionTimeline } from './components/commission-timeline';
export { DocDeliveryForm } from './components/doc-delivery-form';
export { PausedTag } from './components/paused-tag';
export { SearchReportForm } from './components/search-report-form';
export { TechEvaluationForm } from './components/tech-evaluation-form';
export { TechSearchForm } from './components/tech-search-form';
export { UnitCalculator } from './components/unit-calculator';
export { commissionTexts } from './texts';
