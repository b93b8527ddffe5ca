import { describe, expect, it } from 'vitest';
import { deleteConfirmText } from './delete-confirm';

const base = {
  payStatus: 0 as const,
  orderStatus: null,
  offlinePending: false,
  actions: { view: false, download: false, pay: false, start: true, retry: false, delete: true },
};

describe('deleteConfirmText', () => {
  it('names the free use a deletion keeps or gave back: the free check, or the free AIGC detection', () => {
    expect(deleteConfirmText({ ...base, checkStatus: 'pending', free: true })).toContain('免费查重次数');
    expect(deleteConfirmText({ ...base, checkStatus: 'pending', free: true, kind: 'aigc' })).toContain(
      '免费AIGC检测次数',
    );
    expect(deleteConfirmText({ ...base, checkStatus: 'failed', free: true, kind: 'aigc' })).toContain(
      '免费AIGC检测次数已退回',
    );
    expect(deleteConfirmText({ ...base, checkStatus: 'failed', free: true, kind: 'similarity' })).toContain(
      '免费查重次数已退回',
    );
  });
});
