import type { WritingView } from './types';

/** A writing as /aiWriting/query answers it, for page tests: two chapters, a draft or done. */
const flags = { form: '0', formula: '0', code: '0', picture: '0' } as const;
export function draftView(
  status: 'draft' | 'done' | 'failed',
  failed: Pick<WritingView, 'statusText' | 'refundState'> = { statusText: '', refundState: null },
): WritingView {
  const at = '2026-11-27T00:00:00.000Z';
  return {
    writingId: 'w1',
    area: 'dissertation',
    areaName: '毕业论文',
    topic: '城市社区养老服务',
    title: '城市社区养老服务供给研究',
    discipline: '',
    degree: '本科',
    language: 'zh',
    targetWords: 1000,
    requirements: '',
    templateId: 'general',
    outline: [
      { name: '绪论', wordCount: 500, ...flags },
      { name: '结论', wordCount: 500, ...flags },
    ],
    abstract: null,
    sources: [],
    orderId: status === 'draft' ? null : 'o1',
    status,
    statusText: status === 'done' ? '已完成' : status === 'failed' ? failed.statusText : '草稿',
    refundState: status === 'failed' ? failed.refundState : null,
    progress: status === 'done' ? 100 : 0,
    sectionsWritten: status === 'done' ? 2 : 0,
    wordsWritten: 0,
    removedCitations: 0,
    freeOutline: true,
    revisionsLeft: 2,
    unlimitedRevisions: false,
    revisionsOrderId: null,
    revision: null,
    createdAt: at,
    updatedAt: at,
    finishedAt: status === 'done' ? at : null,
    sandbox: true,
  };
}
