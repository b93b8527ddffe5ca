/** Shapes of /aiWriting/* answers (docs/api/writing.md). */
export type WritingAreaId = 'dissertation' | 'proposal' | 'assignment' | 'journalsReviewed';
export type Flag = '0' | '1';

export interface OutlineItem {
  name: string;
  wordCount: number;
  form: Flag;
  formula: Flag;
  code: Flag;
  picture: Flag;
  children?: OutlineItem[];
}

export interface TitleSuggestion {
  title: string;
  reason: string;
}

export interface WritingAbstract {
  zh: string;
  en: string;
  keywordsZh: string[];
  keywordsEn: string[];
}

export interface WritingSource {
  n: number;
  title: string;
  authors: string[];
  year: number | null;
  source: string | null;
}

export interface WritingView {
  writingId: string;
  area: WritingAreaId;
  areaName: string;
  topic: string;
  title: string | null;
  discipline: string;
  degree: string;
  targetWords: number;
  requirements: string;
  outline: OutlineItem[] | null;
  abstract: WritingAbstract | null;
  sources: WritingSource[];
  orderId: string | null;
  status: 'draft' | 'ordered' | 'writing' | 'done' | 'failed';
  statusText: string;
  progress: number;
  sectionsWritten: number;
  wordsWritten: number;
  removedCitations: number;
  sandbox: boolean;
  createdAt: string;
}

export interface DraftInput {
  writingId?: string;
  area: WritingAreaId;
  topic: string;
  title: string;
  targetWords: number;
  discipline: string;
  degree: string;
  requirements: string;
}

export interface SubmittedOrder {
  writingId: string;
  orderId: string;
  orderNo: string;
  amount: string;
}
