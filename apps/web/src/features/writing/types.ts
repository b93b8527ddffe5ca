/** Shapes of /aiWriting/* answers: the contract's (@kyfw/contracts writingApi, docs/api/writing.md). */
import type { BodyOf, DataOf, writingApi } from '@kyfw/contracts';

export type { OutlineItem, WritingAreaId } from '@kyfw/contracts';
export type Flag = '0' | '1';
export type TitleSuggestion = DataOf<typeof writingApi.title>['titles'][number];
export type WritingView = DataOf<typeof writingApi.query>;
export type WritingAbstract = NonNullable<WritingView['abstract']>;
export type WritingSource = WritingView['sources'][number];
export type DraftInput = BodyOf<typeof writingApi.saveOrder>;
export type SubmittedOrder = DataOf<typeof writingApi.submitOrder>;
