/** The 降重 / 降AIGC feature's public API: the workspace of /reduction and /reduction/aigc and 我的降重. */
export { ReduceReportButton, reductionPayPath } from './components/reduce-report-button';
export { ReductionList } from './components/reduction-list';
export { ReductionWorkspace } from './components/reduction-workspace';
export { reductionTexts } from './texts';
export type * from './types';
