/** The AI writing feature's public API: the workspace of the four /ai areas and 写作订单. */
export { WritingList } from './components/writing-list';
export { WritingWorkspace } from './components/writing-workspace';
export { writingTexts } from './texts';
export type * from './types';
